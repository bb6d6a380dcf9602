import { Projection } from '../src/infra/projections/projection';
import { platformConfigProjection } from './platform-config/platform-config.projection';

/**
 * Every read model. Add a projection here (one line) and the runner creates, catches up and
 * rebuilds it; `npm run projections:*` operate on this list.
 */
export const ALL_PROJECTIONS: Projection[] = [platformConfigProjection];
