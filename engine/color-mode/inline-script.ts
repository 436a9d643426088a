/**
 * The tiny script placed in <head> that applies the colour mode before first paint (no flash). It
 * repeats resolveColorMode's rules in ~300 bytes; color-mode.test.ts checks both agree.
 */
import { COLOR_MODE_STORAGE_KEY } from '../constants'
import { forcedValue } from './resolve-color-mode'

export function colorModeInlineScript(
  routeForced: string | null | undefined,
  warn?: (m: string) => void,
): string {
  const forced = forcedValue(routeForced, warn)
  const key = JSON.stringify(COLOR_MODE_STORAGE_KEY)
  return `(function(){var d=document.documentElement,f=${JSON.stringify(forced)},p="system",v;try{p=localStorage.getItem(${key})||"system"}catch(e){}if(p!=="light"&&p!=="dark")p="system";v=f||(p==="system"?(matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light"):p);d.dataset.colorMode=v;d.dataset.colorPreference=p;if(f)d.dataset.colorForced="true";d.style.colorScheme=v})()`
}
