/** The header's menu button: toggles the menu it controls, as Shell.tsx's React state does. */
export function mountMenu(button: HTMLButtonElement, doc: Document = document): void {
  const menu = doc.getElementById(button.getAttribute('aria-controls') ?? '')
  if (!menu) return
  button.addEventListener('click', () => {
    const open = button.getAttribute('aria-expanded') !== 'true'
    button.setAttribute('aria-expanded', String(open))
    menu.classList.toggle('open', open)
  })
}
