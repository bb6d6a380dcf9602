import { cardExpiry, groupedPan, passesLuhn, sandboxCardSecrets } from './card-pan';
import { sandboxCardDetails } from './card-scenarios';

const CARD = 'Card:0199a000-0000-7000-8000-0000000000c1';

describe('sandbox card secrets (the reveal page)', () => {
  it('a 16-digit, Luhn-valid test number ending in the card last4, and a 3-digit CVV', () => {
    const { pan, cvv } = sandboxCardSecrets(CARD, '4242');
    expect(pan).toMatch(/^400000\d{6}4242$/);
    expect(passesLuhn(pan)).toBe(true);
    expect(cvv).toMatch(/^\d{3}$/);
  });

  it('is Luhn-valid for every last4 the issuer can give, and for many cards', () => {
    for (let value = 0; value < 10_000; value += 1) {
      const last4 = String(value).padStart(4, '0');
      const { pan } = sandboxCardSecrets(CARD, last4);
      expect(pan.slice(-4)).toBe(last4);
      expect(passesLuhn(pan)).toBe(true);
    }
    for (let index = 0; index < 200; index += 1) {
      const cardId = `Card:0199a000-0000-7000-8000-${String(index).padStart(12, '0')}`;
      const { last4 } = sandboxCardDetails(cardId, '2025-10-13T12:00:00.000Z');
      const { pan } = sandboxCardSecrets(cardId, last4);
      expect(pan.slice(-4)).toBe(last4);
      expect(passesLuhn(pan)).toBe(true);
    }
  });

  it('derives the same values for the same card every time, other values for another card', () => {
    expect(sandboxCardSecrets(CARD, '4242')).toEqual(sandboxCardSecrets(CARD, '4242'));
    const other = sandboxCardSecrets('Card:0199a000-0000-7000-8000-0000000000c2', '4242');
    expect(other.pan.slice(6, 12)).not.toBe(sandboxCardSecrets(CARD, '4242').pan.slice(6, 12));
  });

  it('refuses a last4 that is not four digits', () => {
    expect(() => sandboxCardSecrets(CARD, '424')).toThrow('last4 must be four digits');
    expect(() => sandboxCardSecrets(CARD, '42a2')).toThrow('last4 must be four digits');
  });

  it('checks Luhn as card networks do', () => {
    expect(passesLuhn('4242424242424242')).toBe(true);
    expect(passesLuhn('4111111111111111')).toBe(true);
    expect(passesLuhn('4242424242424241')).toBe(false);
    expect(passesLuhn('')).toBe(false);
    expect(passesLuhn('4242 4242 4242 4242')).toBe(false);
  });

  it('formats the number in groups of four and the expiry as MM/YY', () => {
    expect(groupedPan('4000001234564242')).toBe('4000 0012 3456 4242');
    expect(cardExpiry(3, 2028)).toBe('03/28');
    expect(cardExpiry(11, 2030)).toBe('11/30');
  });
});
