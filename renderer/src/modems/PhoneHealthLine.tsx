import type { ModemInfo } from '../api/types.js';
import { PhonePacingForm } from './PhonePacingForm.js';

/**
 * An Android phone's battery and connection, as its app reports them (GET /health on the phone),
 * whether its app sends MMS (docs/phones.md "MMS"), and its pacing.
 */
export function PhoneHealthLine(props: {
  phone: NonNullable<ModemInfo['phone']>;
  deviceId: string;
  sendsMms: boolean;
}) {
  const { batteryPercent, charging, internet, appVersion } = props.phone;
  const parts = [
    batteryPercent === undefined ? undefined : `Battery ${batteryPercent}%${charging ? ' (charging)' : ''}`,
    internet === undefined ? undefined : internet ? 'internet connected' : 'no internet connection',
    appVersion === undefined ? undefined : `app ${appVersion}`,
    props.sendsMms ? 'sends MMS' : 'no MMS (this app version sends SMS only)',
  ].filter((part) => part !== undefined);
  return (
    <>
      <p className="muted">{parts.join(' · ')}</p>
      <PhonePacingForm deviceId={props.deviceId} />
    </>
  );
}
