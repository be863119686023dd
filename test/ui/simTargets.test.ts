import { describe, expect, it } from 'vitest';
import type { SimTargetForm } from '../../renderer/src/api/types.js';
import { isChosen, withModem, withSlot } from '../../renderer/src/modems/simTargets.js';

describe('choosing modems and SIM slots', () => {
  const phone = 'phone';

  it('chooses a whole modem, which leaves its single slots out', () => {
    const slotTwo: SimTargetForm[] = ['modem', { deviceId: phone, simNumber: 2 }];
    expect(withModem(slotTwo, phone, true)).toEqual(['modem', phone]);
    expect(withModem(['modem', phone], phone, false)).toEqual(['modem']);
    expect(isChosen([phone], phone, 1)).toBe(true);
  });

  it('writes every slot chosen one by one as the modem, and one slot off as the others', () => {
    const one = withSlot([], phone, 2, 2, true);
    expect(one).toEqual([{ deviceId: phone, simNumber: 2 }]);
    expect(isChosen(one, phone)).toBe(false);
    expect(isChosen(one, phone, 2)).toBe(true);
    expect(withSlot(one, phone, 1, 2, true)).toEqual([phone]);
    expect(withSlot([phone], phone, 1, 2, false)).toEqual([{ deviceId: phone, simNumber: 2 }]);
    expect(withSlot(one, phone, 2, 2, false)).toEqual([]);
  });
});
