// Windows code signing through Azure Trusted Signing for `npm run dist` (scripts/dist.mjs).

/**
 * The variables that name a Trusted Signing account, and the electron-builder option each one
 * fills (win.azureSignOptions; electron-builder's "Windows: Azure Trusted Signing" docs).
 * electron-builder signs through Microsoft's `Invoke-TrustedSigning`, which signs in to
 * Microsoft Entra ID from AZURE_TENANT_ID, AZURE_CLIENT_ID and AZURE_CLIENT_SECRET
 * (Azure.Identity's EnvironmentCredential); those are read by it, not here.
 */
export const trustedSigningVariables = {
  AZURE_SIGNING_ENDPOINT: 'endpoint',
  AZURE_SIGNING_ACCOUNT: 'codeSigningAccountName',
  AZURE_SIGNING_PROFILE: 'certificateProfileName',
  AZURE_SIGNING_PUBLISHER: 'publisherName',
};

const credentialVariables = ['AZURE_TENANT_ID', 'AZURE_CLIENT_ID', 'AZURE_CLIENT_SECRET'];

/**
 * electron-builder's `-c.win.azureSignOptions.*` arguments when the account is named, none when
 * nothing is (an unsigned build, or a .pfx through WIN_CSC_LINK); a half-named account is an
 * error that names what is missing, rather than an installer silently left unsigned.
 *
 * @param {NodeJS.ProcessEnv} env
 * @returns {{ args: string[] } | { error: string }}
 */
export function trustedSigningArgs(env) {
  const named = Object.keys(trustedSigningVariables).filter((name) => (env[name] ?? '') !== '');
  if (named.length === 0) return { args: [] };
  const missing = [...Object.keys(trustedSigningVariables), ...credentialVariables].filter(
    (name) => (env[name] ?? '') === '',
  );
  if (missing.length > 0) {
    return {
      error: `Azure Trusted Signing needs ${missing.join(', ')} as well (docs/desktop.md, "Installers")`,
    };
  }
  return {
    args: Object.entries(trustedSigningVariables).map(
      ([variable, option]) => `-c.win.azureSignOptions.${option}=${env[variable]}`,
    ),
  };
}
