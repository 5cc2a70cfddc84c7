// Browser test of the chat page and the rulebook, driving Debian's headless Chromium with
// playwright-core. Run it through scripts/browser-test, which builds and starts the server;
// by hand: ARBITER_URL=http://127.0.0.1:PORT node tests/browser/chat.test.mjs
//
// Prints one line per check and closes with "N passed, M failed"; exits 1 on any failure.

import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const BASE = (process.env.ARBITER_URL || "http://127.0.0.1:8080").replace(/\/$/, "");
const ORIGIN = new URL(BASE).origin;
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const SHOTS = process.env.SCREENSHOT_DIR || HERE;
const TIMEOUT = Number(process.env.ANSWER_TIMEOUT_MS || 20000);

const CASTLE_FEN = "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1";
const HOSTILE = `<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">`;

let passed = 0;
let failed = 0;
const failures = [];

function ok(name, cond, detail) {
  if (cond) {
    passed++;
    console.log(`ok   - ${name}`);
  } else {
    failed++;
    failures.push(name);
    console.log(`FAIL - ${name}${detail !== undefined ? `\n       ${String(detail).replace(/\n/g, "\n       ")}` : ""}`);
  }
  return Boolean(cond);
}

/** Runs a group of checks; an exception inside counts as one failure and the run goes on. */
async function step(name, fn) {
  try {
    await fn();
  } catch (err) {
    ok(`${name} (threw)`, false, err && err.stack ? err.stack.split("\n").slice(0, 4).join("\n") : err);
  }
}

let browser;
try {
  browser = await chromium.launch({
  executablePath: CHROMIUM,
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
    "--disable-dev-shm-usage",
  ],
  });
} catch (err) {
  ok("chromium launches", false, err && err.message);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(1);
}

const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
const requests = [];
const consoleErrors = [];
const badResponses = [];
context.on("request", (req) => requests.push(req.url()));
// The error step provokes 4xx answers from the API on purpose; those are expected. Chromium
// logs every 4xx/5xx as a console error "Failed to load resource", so such console lines are
// judged by the responses recorded here instead.
let expectApiErrors = false;
context.on("response", (res) => {
  if (res.status() < 400) return;
  const path = new URL(res.url()).pathname;
  if (expectApiErrors && res.status() < 500 && path.startsWith("/api/")) return;
  // The rulebook pages name no icon, so Chromium asks for /favicon.ico (a 404 here).
  if (path === "/favicon.ico") return;
  badResponses.push(`${res.status()} ${res.url()}`);
});
const page = await context.newPage();
page.setDefaultTimeout(TIMEOUT);
page.on("console", (msg) => {
  if (msg.type() !== "error") return;
  if (/^Failed to load resource: the server responded with a status of \d+/.test(msg.text())) return;
  consoleErrors.push(`${msg.text()} (${page.url()})`);
});
page.on("pageerror", (err) => consoleErrors.push(`uncaught: ${err.message} (${page.url()})`));

/** Asks through the UI (type, Enter) and waits for the reply (answer or error) to arrive. */
async function askViaUi(question) {
  const before = await page.locator("#thread > li.answer, #thread > li.error").count();
  await page.locator("#question").fill(question);
  await page.locator("#question").press("Enter");
  await page.waitForFunction((n) => document.querySelectorAll("#thread > li.answer, #thread > li.error").length > n, before, { timeout: TIMEOUT });
  return page.locator("#thread > li.answer, #thread > li.error").nth(before);
}

try {
  await step("the chat page loads", async () => {
    const res = await page.goto(BASE + "/", { waitUntil: "load" });
    ok("GET / answers 200", res && res.status() === 200, res && res.status());
    ok("the title is Rules Arbiter", (await page.title()) === "Rules Arbiter", await page.title());
    ok("the heading says Rules Arbiter", (await page.locator("h1").innerText()).trim() === "Rules Arbiter");
    const lede = await page.locator("body").innerText();
    ok(
      "the page says what the Arbiter does",
      lede.includes("Ask about the rules. The Arbiter answers from this rulebook and tells you which pages to check."),
    );
    ok("there is a list of common questions", (await page.locator("#common button").count()) >= 5);
    ok("the thread is an aria-live region", (await page.locator("#thread").getAttribute("aria-live")) === "polite");
    const unlabeled = await page.evaluate(() =>
      [...document.querySelectorAll("textarea, input:not([type=hidden]), select")]
        .filter((e) => !(e.labels && e.labels.length) && !e.getAttribute("aria-label"))
        .map((e) => e.id || e.name || e.outerHTML.slice(0, 60)),
    );
    ok("every form control has a label", unlabeled.length === 0, unlabeled.join(", "));
    // Keyboard: the first Tab lands on the skip link, which is visible while focused.
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => ({ cls: document.activeElement.className, top: document.activeElement.getBoundingClientRect().top }));
    ok("Tab reaches the skip link first and shows it", focused.cls === "skip" && focused.top >= 0, JSON.stringify(focused));
    await page.keyboard.press("Enter");
    ok("no console errors on load", consoleErrors.length === 0 && badResponses.length === 0, consoleErrors.concat(badResponses).join("\n"));
    ok("the skip link moves focus to the question box", await page.evaluate(() => document.activeElement.id === "question" || location.hash === "#question"));
  });

  await step("a FEN shows the board at once", async () => {
    await page.locator("#position").fill(CASTLE_FEN);
    await page.waitForFunction(() => {
      const img = document.querySelector("#board");
      return img && !document.querySelector("#board-wrap").hidden && img.complete && img.naturalWidth > 0;
    });
    const src = await page.locator("#board").getAttribute("src");
    ok("the preview board shows the pasted FEN", decodeURIComponent(src).includes("fen=" + CASTLE_FEN), src);
    await page.waitForFunction(() => document.querySelector("#position-status").className.includes("ok"));
    ok("the position status says whose move it is", /White to move/.test(await page.locator("#position-status").innerText()));
  });

  let answer;
  await step("asking about castling in the position", async () => {
    answer = await askViaUi("Can I castle short here?");
    ok("an answer (not an error) arrives", (await answer.getAttribute("class")).includes("answer"), await answer.innerText());
    const ruling = await answer.locator(".ruling").innerText();
    ok("the ruling mentions f1", /\bf1\b/.test(ruling), ruling);
    ok(
      "the ruling says castling is not allowed now",
      /\b(not|cannot|can't|may not|illegal|no)\b/i.test(ruling) && /castl/i.test(ruling),
      ruling,
    );
    ok("the question is shown above the answer", (await page.locator("#thread > li.question .q-text").first().innerText()) === "Can I castle short here?");

    const links = await answer.locator(".sources a").evaluateAll((as) => as.map((a) => ({ href: a.href, raw: a.getAttribute("href"), text: a.textContent })));
    ok("the answer has a Sources list with links", links.length > 0, JSON.stringify(links));
    ok("a source points to #art-3-8-2-2", links.some((l) => l.href.endsWith("#art-3-8-2-2")), links.map((l) => l.raw).join("\n"));
    ok("every source link is a rulebook page on this server", links.every((l) => l.href.startsWith(ORIGIN + "/rulebook/")), links.map((l) => l.href).join("\n"));

    const board = answer.locator("img.answer-board");
    ok("the answer shows a board diagram", (await board.count()) === 1 && (await board.isVisible()));
    await page.waitForFunction((img) => img.complete && img.naturalWidth > 0, await board.elementHandle());
    const src = new URL(await board.getAttribute("src"), BASE);
    const marks = (src.searchParams.get("marks") || "").split(",");
    ok("the diagram is /board.svg of the answer's position", src.pathname === "/board.svg" && src.searchParams.get("fen").startsWith("r3k2r/8/8/8/2b5/8/8/R3K2R"), src.href);
    ok("the diagram marks f1", marks.includes("f1"), src.href);
    ok("the diagram's alt text names the marked squares", /f1/.test((await board.getAttribute("alt")) || ""));
  });

  await step("a hostile question is shown, not run", async () => {
    const reply = await askViaUi(HOSTILE);
    ok("a reply arrives for the hostile question", (await reply.count()) === 1);
    const shown = await page.locator("#thread > li.question .q-text").last().textContent();
    ok("the question is shown as text, exactly", shown === HOSTILE, shown);
    const injected = await page.evaluate(() => document.querySelectorAll("#thread script, #thread img[src='x'], #thread [onerror]").length);
    ok("no element was made from the question", injected === 0, injected);
    await page.waitForTimeout(300);
    ok("window.__pwned is undefined", (await page.evaluate(() => typeof window.__pwned)) === "undefined");
  });

  await step("errors from the API appear in the thread", async () => {
    expectApiErrors = true;
    await page.locator("#position").fill("8/8/8/8/8/8/8/8 w - - 0 1");
    await page.waitForFunction(() => document.querySelector("#position-status").className.includes("error"));
    ok("an impossible position is flagged in the position panel", (await page.locator("#position-status").innerText()).length > 0);
    const reply = await askViaUi("Is this checkmate?");
    ok("the error is shown as a message in the thread", (await reply.getAttribute("class")).includes("error"), await reply.innerText());
    const text = await reply.innerText();
    ok("the message carries the server's explanation", text.length > 20 && !/undefined|\[object/.test(text), text);
    ok("the error message is announced (role=alert)", (await reply.getAttribute("role")) === "alert");
    expectApiErrors = false;
  });

  await step("a PGN is replayed to show the board", async () => {
    expectApiErrors = false;
    await page.locator("#position").fill("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6");
    await page.waitForFunction(() => document.querySelector("#position-status").className.includes("ok"));
    const src = decodeURIComponent((await page.locator("#board").getAttribute("src")) || "");
    ok("the board shows the position after the moves", src.includes("r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R"), src);
    ok("the status reports the replay", /White to move/.test(await page.locator("#position-status").innerText()));
  });

  await step("a position can be set up by clicking squares", async () => {
    await page.locator("#setup-toggle").click();
    ok("the set-up panel opens", await page.locator("#setup").isVisible());
    ok("the set-up starts from the replayed position", (await page.locator("#position").inputValue()).startsWith("r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R"));
    await page.locator("#setup-empty").click();
    await page.locator("label[for=piece-wq]").click();
    await page.locator("#squares button[data-square=d5]").click();
    await page.waitForFunction(() => document.querySelector("#position").value.startsWith("4k3/8/8/3Q4/"));
    ok("clicking d5 with the white queen puts it there", (await page.locator("#position").inputValue()).startsWith("4k3/8/8/3Q4/8/8/8/4K3 w"));
    await page.locator("#squares button[data-square=d5]").focus();
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector("#position").value.startsWith("4k3/8/3Q4/3Q4/"));
    ok("squares work from the keyboard (arrows, Enter)", (await page.locator("#position").inputValue()).startsWith("4k3/8/3Q4/3Q4/"));
    ok("the board is one tab stop", (await page.locator("#squares button[tabindex='0']").count()) === 1);
    await page.locator("#setup-toggle").click();
    await page.locator("#position-clear").click();
    ok("clearing the position hides the board", await page.locator("#board-wrap").isHidden());
  });

  await step("a common question fills the box and sends", async () => {
    const before = await page.locator("#thread > li.answer, #thread > li.error").count();
    const btn = page.locator("#common button").first();
    const q = (await btn.getAttribute("data-q")) || "";
    await btn.click();
    await page.waitForFunction((n) => document.querySelectorAll("#thread > li.answer, #thread > li.error").length > n, before);
    ok("the common question is asked", (await page.locator("#thread > li.question .q-text").last().innerText()) === q);
    const reply = page.locator("#thread > li.answer, #thread > li.error").nth(before);
    ok("it gets an answer with sources", (await reply.getAttribute("class")).includes("answer") && (await reply.locator(".sources a").count()) > 0, await reply.innerText());
  });

  await step("chat screenshots", async () => {
    await page.locator("#position").fill(CASTLE_FEN);
    await page.waitForFunction(() => document.querySelector("#position-status").className.includes("ok"));
    await page.locator("#question").focus();
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SHOTS, "screenshot.png") });
    await page.screenshot({ path: join(SHOTS, "screenshot-full.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    ok("the chat page does not scroll sideways on a phone", overflow <= 0, overflow);
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SHOTS, "screenshot-phone.png") });
    await answer.evaluate((e) => window.scrollTo({ top: e.getBoundingClientRect().top + window.scrollY - 60, behavior: "instant" }));
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SHOTS, "screenshot-phone-answer.png") });
    await page.setViewportSize({ width: 1280, height: 900 });
    ok("screenshot saved", true);
  });

  await step("following a source lands on the targeted heading", async () => {
    const link = answer.locator(".sources a[href$='#art-3-8-2-2']").first();
    await Promise.all([page.waitForURL(/#art-3-8-2-2$/), link.click()]);
    await page.waitForLoadState("load");
    ok("the rulebook page opens", new URL(page.url()).pathname.startsWith("/rulebook/"), page.url());
    const target = await page.evaluate(() => {
      const t = document.querySelector(":target");
      if (!t) return null;
      const r = t.getBoundingClientRect();
      return { id: t.id, tag: t.tagName, text: t.textContent, bg: getComputedStyle(t).backgroundColor, top: r.top, bottom: r.bottom, vh: innerHeight };
    });
    ok("the heading #art-3-8-2-2 is present and targeted", target && target.id === "art-3-8-2-2" && /^H[1-6]$/.test(target.tag), JSON.stringify(target));
    ok("the targeted heading is about 3.8.2.2", target && target.text.includes("3.8.2.2"), target && target.text);
    ok("the targeted heading is highlighted", target && target.bg !== "rgba(0, 0, 0, 0)" && target.bg !== "transparent", target && target.bg);
    ok("the targeted heading is in view", target && target.top >= 0 && target.bottom <= target.vh, JSON.stringify(target));
    const boxes = await page.evaluate(() => {
      const nav = document.querySelector("nav.toc").getBoundingClientRect();
      const main = document.querySelector("main").getBoundingClientRect();
      return { nav: { x: nav.x, y: nav.y, w: nav.width }, main: { x: main.x, y: main.y, w: main.width } };
    });
    ok("the rulebook has two columns on a wide screen", boxes.nav.x + boxes.nav.w <= boxes.main.x && boxes.main.w > 500, JSON.stringify(boxes));
    await page.waitForTimeout(1700); // let the arrival flash finish
    await page.screenshot({ path: join(SHOTS, "rulebook.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    const phone = await page.evaluate(() => {
      const nav = document.querySelector("nav.toc").getBoundingClientRect();
      const main = document.querySelector("main").getBoundingClientRect();
      return { overflow: document.documentElement.scrollWidth - innerWidth, navW: nav.width, mainW: main.width, navY: nav.y, mainY: main.y };
    });
    ok("the rulebook collapses to one column on a phone", phone.overflow <= 0 && phone.mainW >= 300 && phone.navY > phone.mainY, JSON.stringify(phone));
    await page.evaluate(() => document.querySelector(":target").scrollIntoView());
    await page.screenshot({ path: join(SHOTS, "rulebook-phone.png") });
  });

  await step("network and console", async () => {
    await page.waitForTimeout(200);
    const foreign = requests.filter((u) => !u.startsWith(ORIGIN + "/") && !u.startsWith("data:"));
    ok(`no request left the server (${requests.length} requests recorded)`, requests.length > 10 && foreign.length === 0, foreign.join("\n") || requests.length);
    ok("no console errors", consoleErrors.length === 0, consoleErrors.join("\n"));
    ok("no failed requests (other than the provoked API errors)", badResponses.length === 0, badResponses.join("\n"));
  });
} finally {
  await browser.close();
}

if (failures.length) console.log(`\nfailed: ${failures.join("; ")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
