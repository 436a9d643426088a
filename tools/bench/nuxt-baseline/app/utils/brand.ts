/** The `ac` brand as definitions/brands/ac.json describes it (what its pages show). */
export const brand = {
  id: 'ac',
  name: 'AllowanceCards',
  ownerLegalName: 'Allowance Cards Marketing LLC',
  postalAddress: { street: '2300 N Commerce Pkwy, Suite 210', city: 'Weston', region: 'FL', postalCode: '33326' },
  tpmo: { organizations: 6, plans: 52 },
  tagManagerId: 'GTM-AC8N4TZ',
  icon: '/brands/ac/icon.svg',
  favicon: '/brands/ac/favicon.svg',
  theme: { primary: '#5a2a82', onPrimary: '#ffffff', accent: '#2ec4b6', surface: '#f6f2fa', ink: '#221433' },
}
