import type { SimPlanView } from '../api/types.js';
import { formatDateTime } from '../format/timeFormat.js';
import { cappedSims, capUseText } from './simCaps.js';

/** On a modem's card: each SIM whose plan cap is used up, until when, and where its messages go. */
export function SimCapNotes(props: { plans: readonly SimPlanView[] | undefined; deviceId: string }) {
  const capped = cappedSims(props.plans, props.deviceId);
  if (capped.length === 0) return null;
  return (
    <>
      {capped.map((cap) => (
        <p key={cap.sim} className="note note-warn">
          <strong>
            SIM {cap.sim} is capped until {formatDateTime(cap.until)}
          </strong>
          : it has sent {capUseText(cap.use, cap.unit)}.{' '}
          {cap.whenCapped === 'hold'
            ? 'Messages routed to it wait for the reset.'
            : 'Its messages go through another SIM meanwhile.'}
        </p>
      ))}
    </>
  );
}
