/** EU member states (ISO 3166-1 alpha-2): customers whose `region` is one need SCA (DECISIONS.md section 3). */
export const SCA_REGIONS: ReadonlySet<string> = new Set([
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE',
  'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE',
]);

export function isScaRegion(region: string | null | undefined): boolean {
  return typeof region === 'string' && SCA_REGIONS.has(region.toUpperCase());
}
