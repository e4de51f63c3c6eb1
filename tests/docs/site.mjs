// Opens the built docs site, served at <base-url>, in headless Chromium and checks what a
// reader does: a wire type page renders its fields table, the search finds
// `structuredContent`, an in-page link moves to its target, and the API page of Toolkit
// shows its methods. Takes a screenshot of each into <screenshots-dir>.
//
//   node site.mjs <base-url> <screenshots-dir>
//
// Prints one JSON object: {"checks": [{"name", "ok", "detail"}], "screenshots": [paths]}.
// Chromium is the system's (CHROMIUM, else /usr/bin/chromium): nothing is downloaded.

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";

const [base, shots] = process.argv.slice(2);
mkdirSync(shots, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const checks = [];
const screenshots = [];
const check = (name, ok, detail = "") => checks.push({ name, ok: Boolean(ok), detail: String(detail) });
const shoot = async (page, name) => {
  const path = join(shots, name);
  await page.screenshot({ path, fullPage: false });
  screenshots.push(path);
};

try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on("pageerror", (err) => errors.push(err.message));

  // A wire type page: its title, its fields table with the name in each language.
  await page.goto(`${base}/reference/wire/ContentPart/`, { waitUntil: "load" });
  const title = await page.locator("article h1").first().textContent();
  check("type page: title", title?.trim().startsWith("ContentPart"), title);
  const rows = await page.locator("article table").first().locator("tbody tr").count();
  check("type page: a row per field", rows === 9, `${rows} rows`);
  const row = await page.locator("article table tbody tr", { hasText: "mimeType" }).first().textContent();
  check("type page: wire key and the names in each language", /mime_type/.test(row) && /mimeType\?: string/.test(row), row);
  await shoot(page, "type-page-ContentPart.png");

  // An in-page link: the table's `data` link goes to the field's own section.
  const before = await page.evaluate(() => window.scrollY);
  await page.locator('article table a[href="#data"]').first().click();
  await page.waitForFunction(() => window.location.hash === "#data");
  // The theme may scroll smoothly: wait until the section has arrived near the top.
  await page
    .waitForFunction(
      () => {
        const top = document.getElementById("data")?.getBoundingClientRect().top;
        return top !== undefined && top >= 0 && top < window.innerHeight / 2;
      },
      undefined,
      { timeout: 10000 },
    )
    .catch(() => undefined);
  const target = await page.evaluate(() => {
    const el = document.getElementById("data");
    const box = el?.getBoundingClientRect();
    return el === null || box === undefined ? null : { top: box.top, height: window.innerHeight, text: el.textContent };
  });
  const after = await page.evaluate(() => window.scrollY);
  check(
    "in-page link: moves to the field's section",
    target !== null && target.top >= 0 && target.top < target.height / 2 && after > before,
    JSON.stringify({ before, after, target }),
  );
  await shoot(page, "in-page-link-data.png");

  // The search: the index is built in the browser (a web worker); results list the pages.
  await page.goto(`${base}/`, { waitUntil: "load" });
  // On a wide window the search field is in the header; typing in it opens the results.
  await page.locator("input.md-search__input").click();
  await page.locator("input.md-search__input").pressSequentially("structuredContent");
  const item = page.locator(".md-search-result__item").first();
  await item.waitFor({ state: "visible", timeout: 20000 });
  const found = await page.locator(".md-search-result__item").count();
  const links = await page.locator(".md-search-result__item a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  check(
    "search: finds structuredContent on the ToolResult page",
    found > 0 && links.some((href) => /reference\/wire\/ToolResult\//.test(href ?? "")),
    `${found} results: ${links.slice(0, 6).join(" ")}`,
  );
  await shoot(page, "search-structuredContent.png");

  // The API page of Toolkit: the class and its methods, from the docstrings.
  await page.goto(`${base}/api/toolkit/`, { waitUntil: "load" });
  const heading = await page.locator("article h2", { hasText: "Toolkit" }).first().textContent();
  const methods = await page.locator("article").textContent();
  check(
    "API page: Toolkit with run_calls and resume",
    /Toolkit/.test(heading ?? "") && /run_calls/.test(methods ?? "") && /resume/.test(methods ?? ""),
    heading,
  );
  await shoot(page, "api-Toolkit.png");
  check("no script errors", errors.length === 0, errors.join("; "));
} catch (err) {
  check("the browser session", false, err.stack ?? err);
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify({ checks, screenshots }) + "\n");
