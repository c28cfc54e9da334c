import { startStressStack } from '/work/main/test/stress/stack';
import { chromium } from 'playwright-core';
process.stdout.write = (() => true) as any;
const stack = await startStressStack({ events: false, powertoolsDev: false });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox','--disable-gpu'] });
for (let i = 0; i < 6; i++) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(stack.url + '/console/sign-in', { waitUntil: 'load' });
  await page.waitForTimeout(600);
  const t = await page.evaluate(() => ({ nav: performance.getEntriesByType('navigation').map((e: any) => ({ rs: e.responseStart|0, re: e.responseEnd|0, di: e.domInteractive|0, dcl: e.domContentLoadedEventEnd|0, load: e.loadEventEnd|0 })), res: performance.getEntriesByType('resource').map((e: any) => `${e.name.split('/').pop()} start ${e.startTime|0} reqStart ${e.requestStart|0} respStart ${e.responseStart|0} end ${e.responseEnd|0}`) }));
  process.stderr.write(JSON.stringify(t, null, 1) + '\n');
  await ctx.close();
}
await browser.close();
await stack.stop();
