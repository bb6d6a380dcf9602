import { SetMetadata } from '@nestjs/common';

export const PUBLIC_ROUTE = 'route:public';
export const IDEMPOTENT_ROUTE = 'route:idempotent';

/** No platform credentials needed (health). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

/** Honours the Idempotency-Key header (DECISIONS.md section 1). */
export const Idempotent = () => SetMetadata(IDEMPOTENT_ROUTE, true);
