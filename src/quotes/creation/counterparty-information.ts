/**
 * `counterpartyInformation` of a quote (SPEC.md "Quote"): what is known about the receiving party,
 * present only when the platform's configuration requires counterparty fields for the receiving
 * currency (`supportedCurrencies[].requiredCounterpartyFields`), and only with the fields that are
 * available. Field names are the platform's own; these well-known ones are filled in.
 */
export interface CounterpartyFacts {
  fullName?: string | null;
  birthDate?: string | null;
  nationality?: string | null;
  email?: string | null;
  address?: Record<string, unknown> | null;
}

const FIELD_SOURCES: Readonly<Record<string, (facts: CounterpartyFacts) => unknown>> = {
  FULL_NAME: (facts) => facts.fullName,
  BIRTH_DATE: (facts) => facts.birthDate,
  DATE_OF_BIRTH: (facts) => facts.birthDate,
  NATIONALITY: (facts) => facts.nationality,
  EMAIL: (facts) => facts.email,
  ADDRESS: (facts) => facts.address,
  POSTAL_ADDRESS: (facts) => facts.address,
  COUNTRY_OF_RESIDENCE: (facts) => (facts.address as { country?: string } | null | undefined)?.country,
};

export function counterpartyInformation(requiredFields: readonly string[], facts: CounterpartyFacts): Record<string, unknown> | null {
  if (requiredFields.length === 0) return null;
  const information: Record<string, unknown> = {};
  for (const field of requiredFields) {
    const value = FIELD_SOURCES[field]?.(facts);
    if (value !== undefined && value !== null && value !== '') information[field] = value;
  }
  return Object.keys(information).length > 0 ? information : null;
}

/** What the sandbox's UMA test receivers disclose about themselves. */
export function sandboxUmaReceiverFacts(address: string): CounterpartyFacts {
  const user = address.slice(1, address.indexOf('@'));
  return {
    fullName: `Sandbox UMA receiver ${user}`,
    birthDate: '1990-01-01',
    nationality: 'US',
    email: `${user}@sandbox.uma.money`,
    address: { line1: '1 Sandbox Way', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' },
  };
}
