/**
 * What the platform's answer to the INCOMING_PAYMENT.PENDING webhook means (the reference's
 * incoming-payment webhook): 200 approves (with `receiverCustomerInfo` when the payer asked for
 * receiver data), 202 defers to `POST /transactions/{id}/approve|reject`, 403 rejects (optional
 * `reason`), 422 asks for more payer data (`requiredFields`). Anything else, or no answer, is an
 * approval webhook error: the payment cannot wait for an endpoint that is down.
 */
export type ApprovalAnswer =
  | { kind: 'APPROVE'; receiverCustomerInfo: Record<string, unknown> | null }
  | { kind: 'DEFER' }
  | { kind: 'REJECT'; reason: string | null }
  | { kind: 'MORE_INFORMATION'; requiredFields: string[] }
  | { kind: 'ERROR'; detail: string };

/** Longest rejection reason kept (it is the platform's own debugging text). */
const MAX_REASON_LENGTH = 256;
const MAX_REQUIRED_FIELDS = 32;

export function readApprovalAnswer(statusCode: number | null, body: string, error: string | null): ApprovalAnswer {
  if (statusCode === null) return { kind: 'ERROR', detail: error ?? 'no answer' };
  if (statusCode === 202) return { kind: 'DEFER' };
  const json = parseObject(body);
  if (statusCode >= 200 && statusCode < 300) {
    const info = json?.receiverCustomerInfo;
    return { kind: 'APPROVE', receiverCustomerInfo: isObject(info) ? info : null };
  }
  if (statusCode === 403) {
    const reason = json?.reason;
    return { kind: 'REJECT', reason: typeof reason === 'string' && reason.length > 0 ? reason.slice(0, MAX_REASON_LENGTH) : null };
  }
  if (statusCode === 422) {
    const fields = json?.requiredFields;
    if (Array.isArray(fields) && fields.length > 0 && fields.length <= MAX_REQUIRED_FIELDS && fields.every((field) => typeof field === 'string')) {
      return { kind: 'MORE_INFORMATION', requiredFields: [...new Set(fields as string[])] };
    }
    return { kind: 'ERROR', detail: 'the endpoint answered 422 without a list of requiredFields' };
  }
  return { kind: 'ERROR', detail: `the endpoint answered ${statusCode}` };
}

/** Whether the webhook was answered (the delivery log shows it delivered) rather than failed. */
export function isApprovalAnswer(statusCode: number | null): boolean {
  return statusCode !== null && ((statusCode >= 200 && statusCode < 300) || statusCode === 403 || statusCode === 422);
}

function parseObject(body: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(body);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
