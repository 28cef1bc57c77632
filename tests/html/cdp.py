"""A minimal headless-Chromium driver over the DevTools protocol pipe
(--remote-debugging-pipe: JSON messages separated by NUL bytes on file
descriptors 3 and 4), standard library only.

    with Browser() as b:
        page = b.open("file:///.../report.html")   # waits for data-pc-ready
        page.eval("document.title")
        page.screenshot("view.png")

The network is switched off for the page (Network.emulateNetworkConditions
offline) before it loads; console messages and exceptions are collected
in page.console.  Every wait has a generous timeout and polls the page
itself (no --virtual-time-budget), so a loaded machine only slows it down.
"""
import base64
import json
import os
import shutil
import subprocess
import tempfile
import time


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


class CDPError(Exception):
    pass


class Browser:
    def __init__(self, timeout=120):
        self.timeout = timeout
        self.exe = chromium()
        if not self.exe:
            raise CDPError("chromium not found")

    def __enter__(self):
        self.profile = tempfile.mkdtemp(prefix="pc-html-")
        # fds 3 (browser reads) and 4 (browser writes)
        r_in, w_in = os.pipe()
        r_out, w_out = os.pipe()
        args = [self.exe, "--headless", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking",
                "--disable-sync", "--mute-audio", "--hide-scrollbars",
                "--user-data-dir=" + self.profile,
                "--remote-debugging-pipe", "about:blank"]

        def child():
            # via fds above 4 first: a pipe end may already be 3 or 4, and
            # os.pipe() fds are close-on-exec (dup2 clears that)
            a, b = os.dup(r_in), os.dup(w_out)
            a2, b2 = os.dup2(a, 100), os.dup2(b, 101)
            os.dup2(a2, 3)
            os.dup2(b2, 4)
        self.proc = subprocess.Popen(args, preexec_fn=child,
                                     close_fds=False, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(r_in)
        os.close(w_out)
        self.wfd, self.rfd = w_in, r_out
        self.buf = b""
        self.next_id = 0
        self.events = []
        return self

    def __exit__(self, *exc):
        try:
            self.call("Browser.close", timeout=10)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.wfd)
        os.close(self.rfd)
        shutil.rmtree(self.profile, ignore_errors=True)

    def _read_message(self, deadline):
        import select
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CDPError("no answer from chromium within the timeout")
            r, _, _ = select.select([self.rfd], [], [], min(left, 1.0))
            if r:
                chunk = os.read(self.rfd, 1 << 20)
                if not chunk:
                    raise CDPError("chromium closed the DevTools pipe")
                self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None, timeout=None):
        self.next_id += 1
        mid = self.next_id
        m = {"id": mid, "method": method, "params": params or {}}
        if session:
            m["sessionId"] = session
        data = json.dumps(m).encode() + b"\0"
        while data:
            n = os.write(self.wfd, data)
            data = data[n:]
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            msg = self._read_message(deadline)
            if msg.get("id") == mid:
                if "error" in msg:
                    raise CDPError("%s: %s" % (method, msg["error"]))
                return msg.get("result", {})
            self.events.append(msg)

    def open(self, url, width=1280, height=900, ready=True):
        """ready: wait for the report's data-pc-ready (else for the
        document to be loaded: another file, e.g. an SVG)"""
        t = self.call("Target.createTarget", {"url": "about:blank"})
        s = self.call("Target.attachToTarget", {"targetId": t["targetId"], "flatten": True})
        page = Page(self, s["sessionId"])
        page.setup(width, height)
        page.navigate(url, ready=ready)
        return page


class Page:
    def __init__(self, browser, session):
        self.b = browser
        self.s = session
        self.console = []

    def call(self, method, params=None, timeout=None):
        r = self.b.call(method, params, self.s, timeout)
        self._drain()
        return r

    def _drain(self):
        keep = []
        for e in self.b.events:
            if e.get("sessionId") != self.s:
                keep.append(e)
                continue
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning", "assert"):
                self.console.append("console.%s: %s" % (p["type"], " ".join(
                    str(a.get("value", a.get("description", ""))) for a in p.get("args", []))))
            elif m == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                self.console.append("exception: %s" % d.get("exception", {}).get("description", d.get("text")))
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                self.console.append("log: %s" % p["entry"].get("text"))
        self.b.events = keep

    def setup(self, width, height):
        self.call("Runtime.enable")
        self.call("Log.enable")
        self.call("Page.enable")
        self.call("Network.enable")
        self.call("Network.emulateNetworkConditions", {"offline": True, "latency": 0,
                                                       "downloadThroughput": -1, "uploadThroughput": -1})
        self.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
                                                         "deviceScaleFactor": 1, "mobile": False})

    def navigate(self, url, timeout=120, ready=True):
        self.call("Page.navigate", {"url": url})
        self.wait("document.documentElement && document.documentElement.getAttribute('data-pc-ready')" if ready
                  else "document.readyState === 'complete' && location.href !== 'about:blank'", timeout)

    def eval(self, expr, timeout=None):
        r = self.call("Runtime.evaluate", {"expression": expr, "returnByValue": True,
                                           "awaitPromise": True}, timeout)
        if "exceptionDetails" in r:
            raise CDPError("%s: %s" % (expr[:80], r["exceptionDetails"].get("exception", {}).get(
                "description", r["exceptionDetails"].get("text"))))
        return r.get("result", {}).get("value")

    def wait(self, expr, timeout=120):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                v = self.eval(expr)
            except CDPError:
                v = None
            if v:
                return v
            time.sleep(0.05)
        raise CDPError("timed out after %ds waiting for %s" % (timeout, expr))

    def settle(self):
        """Waits until two animation frames have run (scroll/redraw)."""
        return self.eval("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(1))))")

    def screenshot(self, path, full=True):
        params = {"format": "png"}
        if full:
            m = self.call("Page.getLayoutMetrics")
            cs = m.get("cssContentSize") or m.get("contentSize")
            params["clip"] = {"x": 0, "y": 0, "width": cs["width"], "height": min(cs["height"], 4000), "scale": 1}
            params["captureBeyondViewport"] = True
        r = self.call("Page.captureScreenshot", params)
        with open(path, "wb") as f:
            f.write(base64.b64decode(r["data"]))
