/**
 * The --disable-features switch for Debian's headless Chromium launched through playwright-core: the 3D camera's
 * renderer gives it, and so does the page tests' shared browser (test/support/pagesBrowser.ts).
 *
 * Chromium's headless mode is the whole browser: each window preloaded two omnibox (address bar) popups
 * (chrome://omnibox-popup.top-chrome/, a renderer process) that no page of ours ever opens, some 0.6 s of CPU a window.
 * Chromium takes the last --disable-features it is given and ignores the others, and Playwright gives one of its own
 * before ours, so ours repeats Playwright's list (playwright-core 1.65, chromiumSwitches.ts); `featuresDropped` finds
 * what a launched browser's own list names and ours leaves out, which an upgrade of Playwright could add.
 */

/** The features playwright-core 1.65 disables in every Chromium it launches. */
const PLAYWRIGHT_DISABLED = [
  'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades', 'HttpsFirstBalancedModeAutoEnable', 'LensOverlay',
  'MediaRouter', 'PaintHolding', 'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect', 'TcpPortRandomizationWin',
  'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch', 'msForceBrowserSignIn', 'msEdgeUpdateLaunchServicesPreferredVersion',
];

/** Playwright's features and the two omnibox popups. */
export const DISABLED_FEATURES: readonly string[] = [...PLAYWRIGHT_DISABLED, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/** The switch to give last among a launch's arguments. */
export const DISABLE_FEATURES_SWITCH = `--disable-features=${DISABLED_FEATURES.join(',')}`;

/**
 * The features any --disable-features of a browser's command line (`args`) names and ours leaves out: none unless
 * Playwright's own list grew, which ours, given last, would silently switch back on.
 */
export function featuresDropped(args: readonly string[]): string[] {
  const named = args.filter((a) => a.startsWith('--disable-features=')).flatMap((a) => a.slice('--disable-features='.length).split(','));
  return named.filter((f) => f !== '' && !DISABLED_FEATURES.includes(f));
}
