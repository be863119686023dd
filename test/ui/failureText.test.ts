import { describe, expect, it } from 'vitest';
import type { MessageRecord, RecipientState } from '../../renderer/src/api/types.js';
import { plainFailure } from '../../renderer/src/messages/failureText.js';
import {
  deliveryFailed,
  interrupted,
  modemRefused,
  sendFailed,
} from '../../server/contract/domain/failureTexts.js';

const message: MessageRecord = {
  id: 'm1',
  state: 'Failed',
  isHashed: false,
  isEncrypted: false,
  recipients: [],
  states: { Pending: '2026-11-22T10:00:00.000+00:00' },
  createdAt: '2026-11-22T10:00:00.000+00:00',
};

function failed(reason: { error: string; failure: RecipientState['failure'] }): RecipientState {
  return { phoneNumber: '+15551230001', state: 'Failed', ...reason };
}

describe('a recipient failure in words', () => {
  it('says a refusal from its code, whatever words the modem used, and keeps the text for support', () => {
    const refusal = failed(modemRefused('modem refused the message (+CMS ERROR 500)', 500));
    expect(plainFailure(refusal, message)).toBe(
      'The modem or the mobile network refused it (modem refused the message (+CMS ERROR 500)).',
    );
  });

  it('tells an interrupted send, an undelivered one and another send failure apart by code', () => {
    expect(plainFailure(failed(interrupted), message)).toMatch(/may or may not have reached/);
    expect(plainFailure(failed(deliveryFailed(0x41)), message)).toBe(
      'The network could not deliver it (delivery failed: TP-Status 0x41).',
    );
    expect(plainFailure(failed(sendFailed('port closed')), message)).toBe(
      'The modem could not send it (send failed: port closed).',
    );
  });

  it('shows the text as it is when no code came with it', () => {
    const uncoded: RecipientState = { phoneNumber: '+15551230001', state: 'Failed', error: 'TTL expired' };
    expect(plainFailure(uncoded, message)).toBe('TTL expired');
  });
});
