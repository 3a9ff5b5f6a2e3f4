"""Drives the HTML pages of `ontoresolve serve --http` in a real browser (Selenium 4, Debian's
headless Chromium through /usr/bin/chromedriver).

Usage: pages_browser.py BASE_URL OUTDIR      (e.g. http://127.0.0.1:PORT /tmp/shots)
Flow: home -> search "DMD" from the search box -> gene HGNC:2928 -> back -> MONDO:0010679 ->
its first parent -> back -> its first mapping; screenshots of a search and a concept page
(OUTDIR/search.png, OUTDIR/concept.png, checked not blank with Pillow); no console error and no
failed request (or HTTP status >= 400) anywhere. Collects failures with their step, prints them
and exits 1; prints a short summary and exits 0 otherwise.
Needs the venv of scripts/setup-clients (selenium 4.51.0, Pillow 13.0.0) and Debian's chromium
and chromium-driver.
"""

import json
import os
import shutil
import sys
import tempfile
import time
import urllib.parse

from PIL import Image
from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

BASE = sys.argv[1].rstrip("/")
OUTDIR = sys.argv[2]
WAIT = 10

failures = []
notes = []
visited = []  # (step, url, title)
shots = {}


def fail(step, message):
    failures.append(f"[{step}] {message}")


def note(step, message):
    notes.append(f"[{step}] {message}")


class StepFailed(Exception):
    """A check a step cannot go on without."""


def require(step, condition, message):
    if not condition:
        raise StepFailed(message)


def start_browser(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1280,1000",
        f"--user-data-dir={profile}",
    ]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    return driver


request_urls = {}  # requestId -> URL, from Network.requestWillBeSent


def drain_logs(driver, step):
    """Fails the step on console errors and failed requests logged since the last drain."""
    for entry in driver.get_log("browser"):
        if entry.get("level") == "SEVERE":
            fail(step, f"console error: {entry.get('message')}")
    for entry in driver.get_log("performance"):
        try:
            message = json.loads(entry["message"])["message"]
        except (KeyError, ValueError):
            continue
        method, params = message.get("method"), message.get("params", {})
        if method == "Network.requestWillBeSent":
            request_urls[params.get("requestId")] = params.get("request", {}).get("url")
        elif method == "Network.responseReceived":
            response = params.get("response", {})
            status = response.get("status", 0)
            if status >= 400:
                fail(step, f"request failed: {response.get('url')} -> HTTP {status}")
        elif method == "Network.loadingFailed":
            url = request_urls.get(params.get("requestId"), f"requestId {params.get('requestId')}")
            reason = params.get("errorText")
            if params.get("canceled"):
                reason = f"{reason} (canceled)"
            fail(step, f"request failed: {url} -> {reason}")


def wait_for(driver, step, condition, what):
    try:
        return WebDriverWait(driver, WAIT).until(condition)
    except TimeoutException:
        raise StepFailed(f"timed out after {WAIT}s waiting for {what} (at {driver.current_url})")


def wait_loaded(driver, step):
    wait_for(driver, step, lambda d: d.execute_script("return document.readyState") == "complete", "the page to load")


def check_page(driver, step):
    """Every page: a title, a non-empty h1, the search form; returns (title, h1 text)."""
    wait_loaded(driver, step)
    title = driver.execute_script("return document.title") or ""
    if not title.strip():
        fail(step, f"{driver.current_url}: document.title is empty")
    h1s = driver.find_elements(By.TAG_NAME, "h1")
    h1 = h1s[0].text.strip() if h1s else ""
    if not h1s:
        fail(step, f"{driver.current_url}: no h1")
    elif not h1:
        fail(step, f"{driver.current_url}: the h1 is empty")
    if len(h1s) > 1:
        note(step, f"{driver.current_url}: {len(h1s)} h1 elements")
    forms = driver.find_elements(By.CSS_SELECTOR, "form[role=search]")
    if not forms:
        fail(step, f"{driver.current_url}: no form[role=search]")
    else:
        action = forms[0].get_attribute("action") or ""
        if urllib.parse.urlsplit(action).path != "/search":
            fail(step, f"{driver.current_url}: form[role=search] action is {forms[0].get_attribute('action')!r}, expected /search")
        if not forms[0].find_elements(By.CSS_SELECTOR, "input#q"):
            fail(step, f"{driver.current_url}: no input#q inside form[role=search]")
    # Accessibility details worth a note, not a failure.
    if not (driver.find_element(By.TAG_NAME, "html").get_attribute("lang") or "").strip():
        note(step, f"{driver.current_url}: <html> has no lang")
    labelled = driver.execute_script(
        "const q = document.getElementById('q');"
        "return !q || !!(q.labels && q.labels.length) || !!q.getAttribute('aria-label') || !!q.getAttribute('aria-labelledby');"
    )
    if not labelled:
        note(step, f"{driver.current_url}: input#q has no label nor aria-label")
    unalt = driver.execute_script("return [...document.images].filter(i => !i.hasAttribute('alt')).length")
    if unalt:
        note(step, f"{driver.current_url}: {unalt} img without alt")
    visited.append((step, driver.current_url, title))
    return title, h1


def main_curie(driver):
    mains = driver.find_elements(By.CSS_SELECTOR, "main[data-curie]")
    return mains[0].get_attribute("data-curie") if mains else None


def href_curie(link):
    """The CURIE a /concept/ link points at (percent-decoded)."""
    path = urllib.parse.urlsplit(link.get_attribute("href") or "").path
    return urllib.parse.unquote(path.rsplit("/concept/", 1)[-1]) if "/concept/" in path else None


def open_link(driver, step, link, expected_curie=None):
    """Clicks a concept link and waits for the concept page it opens."""
    old = driver.find_element(By.TAG_NAME, "html")
    link.click()
    wait_for(driver, step, EC.staleness_of(old), "the click to open a new page")
    if expected_curie:
        wait_for(
            driver, step,
            EC.presence_of_element_located((By.CSS_SELECTOR, f'main[data-curie="{expected_curie}"]')),
            f'main[data-curie="{expected_curie}"]',
        )
    else:
        wait_for(driver, step, EC.presence_of_element_located((By.CSS_SELECTOR, "main")), "main")


def screenshot(driver, step, name):
    path = os.path.join(OUTDIR, name)
    if not driver.save_screenshot(path):
        fail(step, f"could not save {path}")
        return
    with Image.open(path) as image:
        rgb = image.convert("RGB")
        colours = rgb.getcolors(maxcolors=rgb.width * rgb.height) or []
        distinct = len(colours)
        dominant = max(count for count, _ in colours) / (rgb.width * rgb.height) if colours else 1.0
        shots[name] = f"{rgb.width}x{rgb.height}, {distinct} colours, {os.path.getsize(path)} bytes"
        if distinct <= 8 or dominant >= 1.0:
            fail(step, f"{name} looks blank: {distinct} distinct colours, the commonest covers {dominant:.1%}")


def run_step(driver, step, body):
    try:
        body()
    except StepFailed as error:
        fail(step, str(error))
    except WebDriverException as error:
        fail(step, f"WebDriver: {type(error).__name__}: {(error.msg or str(error)).strip()[:300]}")
    finally:
        try:
            drain_logs(driver, step)
        except WebDriverException as error:
            fail(step, f"could not read the browser's logs: {error.msg}")


def flow(driver):
    state = {}

    def home():
        driver.get(BASE + "/")
        title, _ = check_page(driver, "a. home")
        if "ontoresolve" not in title:
            fail("a. home", f"title {title!r} does not contain 'ontoresolve'")
        links = driver.find_elements(By.CSS_SELECTOR, 'table a[href^="/source/"]')
        if not links:
            fail("a. home", 'no table with source links (table a[href^="/source/"])')
        state["sources"] = len(links)

    def search():
        box = wait_for(driver, "b. search", EC.element_to_be_clickable((By.CSS_SELECTOR, "form[role=search] input#q")), "input#q")
        old = driver.find_element(By.TAG_NAME, "html")
        box.clear()
        box.send_keys("DMD" + Keys.ENTER)
        wait_for(driver, "b. search", EC.staleness_of(old), "the search to open a new page")
        require("b. search", urllib.parse.urlsplit(driver.current_url).path == "/search", f"Enter in input#q opened {driver.current_url}, expected /search")
        wait_for(driver, "b. search", EC.presence_of_element_located((By.CSS_SELECTOR, "ol#results")), "ol#results")
        title, _ = check_page(driver, "b. search")
        if not title.startswith("Search"):
            fail("b. search", f"title {title!r} does not start with 'Search'")
        value = driver.find_element(By.CSS_SELECTOR, "input#q").get_attribute("value")
        if value != "DMD":
            note("b. search", f"input#q on the results page holds {value!r}, not the query 'DMD'")
        items = driver.find_elements(By.CSS_SELECTOR, "ol#results > li")
        require("b. search", items, "ol#results has no li")
        curies = []
        for index, item in enumerate(items, 1):
            links = item.find_elements(By.CSS_SELECTOR, 'a.concept[href^="/concept/"]')
            if not links:
                fail("b. search", f'result {index} ({item.text[:60]!r}) has no a.concept[href^="/concept/"]')
            else:
                curies.append(href_curie(links[0]))
        state["results"] = len(items)
        state["result_curies"] = curies
        for expected in ("HGNC:2928", "MONDO:0010679"):
            if expected not in curies:
                fail("b. search", f"no result links to /concept/{expected}; results: {curies[:20]}")
        raw = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "ol#results a.concept")]
        if any("%3A" in (h or "").upper() for h in raw):
            note("b. search", "result hrefs percent-encode the ':' of the CURIE")
        state["search_url"] = driver.current_url
        screenshot(driver, "f. screenshots", "search.png")

    def result_link(step, curie):
        for link in driver.find_elements(By.CSS_SELECTOR, "ol#results a.concept"):
            if href_curie(link) == curie:
                return link
        raise StepFailed(f"no result link to /concept/{curie}")

    def gene():
        open_link(driver, "c. gene", result_link("c. gene", "HGNC:2928"), "HGNC:2928")
        _, h1 = check_page(driver, "c. gene")
        if "DMD" not in h1:
            fail("c. gene", f"h1 {h1!r} does not contain 'DMD'")
        screenshot(driver, "f. screenshots", "concept.png")

    def parent():
        step = "d. parent"
        old = driver.find_element(By.TAG_NAME, "html")
        driver.back()
        wait_for(driver, step, EC.staleness_of(old), "back to the search page")
        wait_for(driver, step, EC.presence_of_element_located((By.CSS_SELECTOR, "ol#results")), "ol#results after going back")
        open_link(driver, step, result_link(step, "MONDO:0010679"), "MONDO:0010679")
        check_page(driver, step)
        links = driver.find_elements(By.CSS_SELECTOR, "section#parents a.concept")
        require(step, links, "MONDO:0010679 has no section#parents a.concept")
        target = href_curie(links[0])
        if target != "MONDO:0700285":
            fail(step, f"the first parent link of MONDO:0010679 goes to {target!r}, expected MONDO:0700285")
        open_link(driver, step, links[0])
        wait_for(driver, step, lambda d: main_curie(d) not in (None, "MONDO:0010679"), "a main[data-curie] other than MONDO:0010679")
        check_page(driver, step)
        got = main_curie(driver)
        if got != target:
            fail(step, f"the parent's page has main[data-curie={got!r}], expected {target!r}")
        state["parent"] = got

    def mapping():
        # The mappings of the disease page (MONDO:0010679), which the parent step left.
        step = "e. mapping"
        old = driver.find_element(By.TAG_NAME, "html")
        driver.back()
        wait_for(driver, step, EC.staleness_of(old), "back to MONDO:0010679")
        wait_for(driver, step, EC.presence_of_element_located((By.CSS_SELECTOR, 'main[data-curie="MONDO:0010679"]')), 'main[data-curie="MONDO:0010679"] after going back')
        links = driver.find_elements(By.CSS_SELECTOR, "section#mappings a.concept")
        require(step, links, "MONDO:0010679 has no section#mappings a.concept")
        target = href_curie(links[0])
        open_link(driver, step, links[0])
        wait_for(driver, step, EC.presence_of_element_located((By.CSS_SELECTOR, "main[data-curie]")), "main[data-curie] on the mapping's page")
        check_page(driver, step)
        got = main_curie(driver)
        if got != target:
            note(step, f"the first mapping links to {target!r}, whose page has main[data-curie={got!r}]")
        state["mapping"] = f"{target} -> page {got}"

    def escaping():
        # The query is shown back, escaped: markup in it must not become elements.
        step = "h. escaping"
        query = "<b id=injected>x</b>\"'&"
        driver.get(BASE + "/search?q=" + urllib.parse.quote(query))
        check_page(driver, step)
        if driver.find_elements(By.CSS_SELECTOR, "#injected"):
            fail(step, "the search query's markup was rendered as an element (not escaped)")
        value = driver.find_element(By.CSS_SELECTOR, "input#q").get_attribute("value")
        if value != query:
            note(step, f"input#q holds {value!r}, not the query {query!r}")

    for step, body in [
        ("a. home", home),
        ("b. search", search),
        ("c. gene", gene),
        ("d. parent", parent),
        ("e. mapping", mapping),
        ("h. escaping", escaping),
    ]:
        run_step(driver, step, body)
    return state


def main():
    os.makedirs(OUTDIR, exist_ok=True)
    started = time.monotonic()
    profile = tempfile.mkdtemp(prefix="ontoresolve-chromium-")
    driver = None
    state = {}
    try:
        try:
            driver = start_browser(profile)
        except WebDriverException as error:
            fail("start", f"could not start Chromium through chromedriver: {error.msg}")
        if driver is not None:
            # What the browser itself loads on start (its new-tab page, which asks a host this
            # closed network cannot resolve) is not the server's: drain it before the flow.
            driver.get("about:blank")
            startup = len(failures)
            drain_logs(driver, "start")
            for message in failures[startup:]:
                note("start", f"ignored, from the browser's own start-up: {message}")
            del failures[startup:]
            state = flow(driver)
    finally:
        if driver is not None:
            driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
    elapsed = time.monotonic() - started
    for message in notes:
        print(f"note: {message}")
    if failures:
        for message in failures:
            print(f"FAIL {message}")
        print(f"pages_browser: {len(failures)} failed checks ({elapsed:.1f}s)")
        sys.exit(1)
    print(f"pages_browser: {len(visited)} pages visited in {elapsed:.1f}s")
    for step, url, title in visited:
        print(f"  {step}: {url} — {title!r}")
    print(f"  sources on home: {state.get('sources')}; search results for DMD: {state.get('results')}; "
          f"parent: {state.get('parent')}; mapping: {state.get('mapping')}")
    for name, description in shots.items():
        print(f"  {os.path.join(OUTDIR, name)}: {description}")
    print("pages_browser: all checks passed")


if __name__ == "__main__":
    main()
