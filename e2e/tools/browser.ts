import { chromium, type LaunchOptions } from '@playwright/test';

/** The system Chromium (never a downloaded browser), headless. */
export const chromiumLaunchOptions: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export const launchChromium = () => chromium.launch(chromiumLaunchOptions);
