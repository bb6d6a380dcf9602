import { readFileSync } from 'node:fs';
import { GENERATED_PATH, generateRouteTypes, renderRouteTypes } from '../../scripts/openapi-generate';

/** The answered types in the own OpenAPI document follow the code: regenerate after changing a view. */
describe('src/infra/openapi/route-types.generated.json', () => {
  it('is what scripts/openapi-generate.ts makes from the code now (npm run openapi:generate)', () => {
    expect(readFileSync(GENERATED_PATH, 'utf8')).toBe(renderRouteTypes(generateRouteTypes()));
  }, 120_000);
});
