/**
 * What an IdP's admin form asks for, and what to type: the server's SCIM base URL, an API key
 * of the tenant, or a fixed text.
 */
export interface IdpField {
  /** The field's name as the IdP's admin pages spell it (and docs/idp.md quotes it). */
  readonly label: string;
  readonly value: { readonly base: true } | { readonly key: true } | { readonly text: string };
}

/** How to connect one identity provider to this server. */
export interface IdpSetup {
  /** A stable id, used as the HTML anchor (`#idp-entra`). */
  readonly id: string;
  /** The IdP's name, as docs/idp.md titles its section. */
  readonly name: string;
  /** Where the provisioning settings are: the IdP's admin pages, step by step, as they name them. */
  readonly where: readonly string[];
  readonly fields: readonly IdpField[];
  /** What to do after the fields are filled in. */
  readonly then: readonly string[];
}

const BASE = { base: true } as const;
const KEY = { key: true } as const;

/**
 * The steps of docs/idp.md ("Connect." of each IdP), as the console's setup page shows them
 * with this server's values filled in. `test/examples/console-setup.test.ts` checks that every
 * place and field named here is named in docs/idp.md's section for the same IdP.
 */
export const IDP_SETUPS: readonly IdpSetup[] = [
  {
    id: 'entra',
    name: 'Microsoft Entra ID',
    where: ['Enterprise application', 'Provisioning', 'Automatic'],
    fields: [
      { label: 'Tenant URL', value: BASE },
      { label: 'Secret Token', value: KEY },
    ],
    then: [
      'Provision Microsoft Entra ID Groups may stay on: this server serves /Groups.',
      'Optional: append ?aadOptscim062020 to the Tenant URL for the RFC-compliant PATCH format; both formats are accepted.',
    ],
  },
  {
    id: 'okta',
    name: 'Okta',
    where: ['an app integration with SCIM provisioning', 'SCIM 2.0 Test App (OAuth Bearer Token)'],
    fields: [
      { label: 'SCIM connector base URL', value: BASE },
      { label: 'Unique identifier field for users', value: { text: 'userName' } },
      { label: 'Authentication Mode', value: { text: 'HTTP Header / Bearer' } },
      { label: 'Bearer', value: KEY },
    ],
    then: [
      'Under To App, enable Create Users, Update User Attributes and Deactivate Users.',
      'Push Groups works: this server serves /Groups.',
    ],
  },
  {
    id: 'google',
    name: 'Google Workspace',
    where: ['Admin console', 'Apps', 'Web and mobile apps', 'your SAML app', 'Auto-provisioning'],
    fields: [
      { label: 'endpoint', value: BASE },
      { label: 'access token', value: KEY },
    ],
    then: [
      "Map attributes: Google builds the mapping from this server's /Schemas.",
      'Choose the deprovisioning triggers: "user is suspended" and "user is deleted".',
    ],
  },
  {
    id: 'onelogin',
    name: 'OneLogin',
    where: ['SCIM Provisioner with SAML (SCIM v2 Enterprise)', 'Configuration'],
    fields: [
      { label: 'SCIM Base URL', value: BASE },
      { label: 'SCIM Bearer Token', value: KEY },
      { label: 'scimusername', value: { text: 'Email' } },
    ],
    then: [
      'Set scimusername on Parameters, then enable provisioning.',
      'To send the welcome email on assignment, add "active": true to the SCIM JSON Template.',
    ],
  },
  {
    id: 'jumpcloud',
    name: 'JumpCloud',
    where: ['SSO', 'your SAML application', 'Identity Management', 'SCIM 2.0'],
    fields: [
      { label: 'Base URL', value: BASE },
      { label: 'Token Key', value: KEY },
      { label: 'Test User Email', value: { text: 'an address in your domain' } },
    ],
    then: [
      'Select Test Connection, then Activate.',
      'Enable management of User Groups works: this server serves /Groups.',
    ],
  },
];
