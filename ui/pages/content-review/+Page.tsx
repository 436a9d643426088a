import { ReviewTemplate } from '../../templates/ReviewTemplate'

export default function Page() {
  return <ReviewTemplate />
}
