import type { Brand } from '../../engine/snapshot/types'
import { useResolution } from '../shell/resolution-context'

/** /privacy and /tos: the brand's owner legal name and postal address fill the text. */
export function LegalTemplate() {
  const { page, brand, site } = useResolution()
  if (!page || !brand) return null
  return (
    <article className="container narrow legal">
      <h1 data-testid="headline">{page.headline ?? page.title}</h1>
      {page.legal === 'privacy' ? (
        <Privacy brand={brand} siteName={site.name} />
      ) : (
        <Terms brand={brand} siteName={site.name} />
      )}
      <Contact brand={brand} />
    </article>
  )
}

function Contact({ brand }: { brand: Brand }) {
  const a = brand.postalAddress
  return (
    <section>
      <h2>Contact us</h2>
      <address>
        {brand.ownerLegalName}
        <br />
        {a.street}
        <br />
        {a.city}, {a.region} {a.postalCode}
        <br />
        {a.country === 'US' ? 'United States' : a.country}
      </address>
      {brand.supportEmail && (
        <p>
          E-mail: <a href={`mailto:${brand.supportEmail}`}>{brand.supportEmail}</a>
        </p>
      )}
    </section>
  )
}

function Privacy({ brand, siteName }: { brand: Brand; siteName: string }) {
  const owner = brand.ownerLegalName
  return (
    <>
      <p>
        This policy explains how {owner} ("we", "us"), which operates {siteName} at {brand.url}, collects,
        uses and shares information about you when you visit the site, fill in a form or call us.
      </p>
      <h2>Information we collect</h2>
      <ul>
        <li>
          Information you give us in our forms, such as your name, ZIP code, e-mail address, phone number and
          answers about your coverage.
        </li>
        <li>
          Information collected automatically when you visit, such as your IP address, browser type, pages
          viewed, the ad or link that brought you here, and cookie identifiers.
        </li>
        <li>
          Records of calls with our licensed agents, where the law allows and after we tell you the call may
          be recorded.
        </li>
      </ul>
      <h2>How we use it</h2>
      <ul>
        <li>
          To connect you with licensed insurance agents and insurers who can answer your questions and provide
          quotes.
        </li>
        <li>To show you a phone number to call during business hours and to route your call.</li>
        <li>To measure and improve our website and advertising, and to prevent fraud and automated abuse.</li>
        <li>To meet legal obligations, including keeping records of the consent you give us.</li>
      </ul>
      <h2>How we share it</h2>
      <p>
        We share the information you submit with the licensed agents and insurance companies we work with so
        they can contact you about the products you asked about, and with service providers that host our
        site, measure traffic and route calls on our behalf. We do not sell information for purposes unrelated
        to your request.
      </p>
      <h2>Your choices</h2>
      <p>
        You can ask us to stop contacting you, to tell you what information we hold about you, or to delete
        it, by writing to the address below. Residents of some states have additional rights under state
        privacy laws, and we honor those requests as the law requires. You can also block or delete cookies in
        your browser settings.
      </p>
      <h2>Security and retention</h2>
      <p>
        We protect information with administrative, technical and physical safeguards and keep it only as long
        as we need it for the purposes above or as the law requires.
      </p>
    </>
  )
}

function Terms({ brand, siteName }: { brand: Brand; siteName: string }) {
  const owner = brand.ownerLegalName
  return (
    <>
      <p>
        These terms govern your use of {siteName} at {brand.url}, operated by {owner}. By using the site you
        agree to them.
      </p>
      <h2>What this site is</h2>
      <p>
        {siteName} is a website of a licensed insurance agency. It provides general information and connects
        you with licensed agents and insurers. It is not an insurance company, does not issue policies and is
        not a government website. Information on the site is general and is not advice about your particular
        situation.
      </p>
      <h2>Consent to be contacted</h2>
      <p>
        When you submit a form that asks for your phone number, you agree that {owner} and its partner agents
        may contact you at that number, including by automated technology and text messages, about insurance
        products. Consent is not a condition of any purchase, and you may withdraw it at any time by telling
        the caller or writing to us.
      </p>
      <h2>Acceptable use</h2>
      <p>
        Do not submit information about another person without their permission, interfere with the site, or
        use automated means to submit forms. We may block traffic that appears to be automated.
      </p>
      <h2>No warranty; limitation of liability</h2>
      <p>
        The site is provided as is. Plan details, prices and availability change and are confirmed only by the
        insurer. To the extent the law allows, {owner} is not liable for indirect or consequential losses
        arising from use of the site.
      </p>
      <h2>Changes</h2>
      <p>We may update these terms; the version on this page applies from the time it is posted.</p>
    </>
  )
}
