import { LegalTemplate } from '../../templates/LegalTemplate'

export default function Page() {
  return <LegalTemplate />
}
