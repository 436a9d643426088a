import { ThankYouTemplate } from '../../templates/ThankYouTemplate'

export default function Page() {
  return <ThankYouTemplate />
}
