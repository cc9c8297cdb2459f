// A few patterns instead of a user-agent parsing library: the label only helps a person recognise their
// own browsers on the settings page and decides nothing, so a rare browser shown as "Other browser" is fine.
// Order matters: Edge and Opera also say "Chrome", and Chrome also says "Safari".
const browsers: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\//, 'Opera'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChrome\/|\bCriOS\//, 'Chrome'],
  [/\bSafari\//, 'Safari'],
];
const systems: readonly (readonly [RegExp, string])[] = [
  [/\biPhone|\biPad/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bMacintosh\b|\bMac OS X\b/, 'macOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bLinux\b/, 'Linux'],
];

/** A short label for a `User-Agent` header, e.g. "Firefox on Windows", for the list of signed-in browsers. */
export function userAgentLabel(header: string | undefined): string {
  if (header === undefined || header.length === 0) return 'Unknown browser';
  const browser = browsers.find(([pattern]) => pattern.test(header))?.[1] ?? 'Other browser';
  const system = systems.find(([pattern]) => pattern.test(header))?.[1];
  return system === undefined ? browser : `${browser} on ${system}`;
}
