import { cardAuthorizationScenario } from './card-authorization-scenarios';

describe('sandbox card authorization scenarios (merchant.descriptor suffix)', () => {
  it('declines 002 for funds and 003 as paused, before any pull', () => {
    expect(cardAuthorizationScenario('AMAZON RETAIL US-002')).toEqual({ decline: 'INSUFFICIENT_FUNDS', pullScenario: 'CONFIRM' });
    expect(cardAuthorizationScenario('CORNER SHOP 003')).toEqual({ decline: 'CARD_PAUSED', pullScenario: 'CONFIRM' });
  });

  it('confirms the pull late for 005 and reports it FAILED for 006', () => {
    expect(cardAuthorizationScenario('HOTEL 005')).toEqual({ decline: null, pullScenario: 'CONFIRM_LATE' });
    expect(cardAuthorizationScenario('HOTEL 006')).toEqual({ decline: null, pullScenario: 'FAIL' });
  });

  it('approves anything else, short descriptors and surrounding spaces included', () => {
    expect(cardAuthorizationScenario('BLUE BOTTLE COFFEE SF')).toEqual({ decline: null, pullScenario: 'CONFIRM' });
    expect(cardAuthorizationScenario('AB')).toEqual({ decline: null, pullScenario: 'CONFIRM' });
    expect(cardAuthorizationScenario('SHOP 002  ')).toEqual({ decline: 'INSUFFICIENT_FUNDS', pullScenario: 'CONFIRM' });
    expect(cardAuthorizationScenario('0020')).toEqual({ decline: null, pullScenario: 'CONFIRM' });
  });
});
