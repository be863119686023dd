import { describe, expect, it } from 'vitest';
import { trustedSigningArgs } from '../../scripts/cloudSigning.mjs';

/**
 * Issue 49: Windows installers signed through Azure Trusted Signing when its account is named.
 * The signing itself runs only on Windows (Microsoft's Invoke-TrustedSigning); what is checked
 * here is what `npm run dist` hands electron-builder.
 */
const account = {
  AZURE_SIGNING_ENDPOINT: 'https://weu.codesigning.azure.net',
  AZURE_SIGNING_ACCOUNT: 'shop-signing',
  AZURE_SIGNING_PROFILE: 'public-trust',
  AZURE_SIGNING_PUBLISHER: 'Example Shop Ltd',
  AZURE_TENANT_ID: 'tenant',
  AZURE_CLIENT_ID: 'client',
  AZURE_CLIENT_SECRET: 'secret',
};

describe('Azure Trusted Signing for npm run dist', () => {
  it('fills win.azureSignOptions from the account the environment names', () => {
    expect(trustedSigningArgs(account)).toEqual({
      args: [
        '-c.win.azureSignOptions.endpoint=https://weu.codesigning.azure.net',
        '-c.win.azureSignOptions.codeSigningAccountName=shop-signing',
        '-c.win.azureSignOptions.certificateProfileName=public-trust',
        '-c.win.azureSignOptions.publisherName=Example Shop Ltd',
      ],
    });
  });

  it('adds nothing for an unsigned build or a .pfx', () => {
    expect(trustedSigningArgs({ WIN_CSC_LINK: 'shop.pfx' })).toEqual({ args: [] });
  });

  it('names what a half-configured account lacks instead of building unsigned', () => {
    const { AZURE_SIGNING_PROFILE: _profile, AZURE_CLIENT_SECRET: _secret, ...partial } = account;
    expect(trustedSigningArgs(partial)).toEqual({
      error:
        'Azure Trusted Signing needs AZURE_SIGNING_PROFILE, AZURE_CLIENT_SECRET as well (docs/desktop.md, "Installers")',
    });
  });
});
