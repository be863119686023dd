import type { DeviceRecord, MessageRecord, SendMessageRequest } from '../api/types.js';
import { useApp } from '../appContext.js';
import { ConfirmButton } from '../components/ConfirmButton.js';
import { FormResult } from '../components/StatusViews.js';
import { knownModem } from '../modems/modemLabel.js';
import { usePerson } from '../session/person.js';
import { useAction } from '../useAction.js';

/**
 * The same text to the same recipients through the same modem and SIM, as a new message. The
 * modem only when it is a known one: a message no modem took carries the gateway's own id.
 */
function resendRequest(
  message: MessageRecord,
  devices: readonly DeviceRecord[] | undefined,
): SendMessageRequest | undefined {
  if (!message.textMessage) return undefined;
  const request: SendMessageRequest = {
    phoneNumbers: message.recipients.map((recipient) => recipient.phoneNumber),
    textMessage: message.textMessage,
  };
  const modem = knownModem(devices, message.deviceId);
  if (modem) {
    request.deviceId = modem.id;
    if (message.simNumber !== undefined) request.simNumber = message.simNumber;
  }
  if (message.priority !== undefined) request.priority = message.priority;
  if (message.withDeliveryReport !== undefined) request.withDeliveryReport = message.withDeliveryReport;
  return request;
}

/**
 * Cancel for a message still waiting, Send again for one that failed or was cancelled; in list
 * rows and in the opened message alike.
 */
export function MessageActions(props: {
  message: MessageRecord;
  devices: readonly DeviceRecord[] | undefined;
  onChanged: (message: MessageRecord) => void;
  onResent: (message: MessageRecord) => void;
}) {
  const { api } = useApp();
  const { may } = usePerson();
  const { message } = props;
  const { busy, result, run } = useAction();
  const resend =
    may('messages:send') && (message.state === 'Failed' || message.state === 'Cancelled')
      ? resendRequest(message, props.devices)
      : undefined;
  const cancel = may('messages:cancel') && message.state === 'Pending';
  if (!cancel && !resend) return null;
  const recipients = message.recipients.map((recipient) => recipient.phoneNumber).join(', ');

  return (
    <span className="row-actions">
      {cancel && (
        <ConfirmButton
          label="Cancel"
          ariaLabel={`Cancel message to ${recipients}`}
          className="button-small danger-outline"
          disabled={busy}
          question={message.scheduleAt ? 'Cancel this scheduled message?' : 'Cancel this message?'}
          confirmLabel="Yes, cancel"
          onConfirm={() =>
            void run(async () => {
              props.onChanged(await api.cancelMessage(message.id));
              return undefined;
            })
          }
        />
      )}
      {resend && (
        <button
          type="button"
          className="button-small"
          disabled={busy}
          aria-label={`Send again to ${recipients}`}
          onClick={() =>
            void run(async () => {
              const sent = await api.sendMessage(resend);
              props.onResent(sent);
              return `Sent again to ${recipients}.`;
            })
          }
        >
          Send again
        </button>
      )}
      <FormResult result={result} />
    </span>
  );
}
