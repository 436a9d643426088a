/** POSTs JSON that must survive the page going away: sendBeacon when the browser takes it, else fetch with keepalive. */
export function beaconJson(url: string, body: string): void {
  try {
    if (navigator.sendBeacon?.(url, new Blob([body], { type: 'application/json' }))) return
  } catch {}
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, keepalive: true })
    .then((r) => r.body?.cancel())
    .catch(() => {})
}
