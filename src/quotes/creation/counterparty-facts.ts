import { ExternalAccountDetails } from '../../accounts';
import { CustomerView } from '../../customers';
import { CounterpartyFacts } from './counterparty-information';

export function beneficiaryFacts(external: ExternalAccountDetails): CounterpartyFacts {
  const beneficiary = external.accountInfo.beneficiary;
  if (!beneficiary) return {};
  return {
    fullName: beneficiary.fullName,
    birthDate: beneficiary.birthDate,
    nationality: beneficiary.nationality,
    email: beneficiary.email,
    address: beneficiary.address as Record<string, unknown> | null,
  };
}

export function customerFacts(customer: CustomerView | null): CounterpartyFacts {
  if (!customer) return {};
  const individual = customer.customerType === 'INDIVIDUAL';
  return {
    fullName: individual ? customer.fullName : customer.businessInfo.legalName,
    birthDate: individual ? customer.birthDate : null,
    nationality: individual ? customer.nationality : null,
    email: customer.email,
    address: customer.address as Record<string, unknown> | null,
  };
}
