import { Injectable } from '@nestjs/common';

/**
 * The embedded-wallet context's clock. Every lifetime (15-minute sessions, 5-minute requests and
 * OTP challenges, OIDC token freshness) is measured against it. `advanceBy` moves this context's
 * time forward for e2e tests of expiry against the real app (a session's 15 minutes cannot be
 * waited out in a test); nothing else in the service calls it.
 */
@Injectable()
export class WalletClock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advanceBy(ms: number): void {
    this.offsetMs += ms;
  }

  reset(): void {
    this.offsetMs = 0;
  }
}
