"""An integrator's sign-in with Flask and httpx, written from the interface. Configured by the environment
(AUTH_URL, ACCOUNTS_URL, CLIENT_ID, CLIENT_SECRET, PORT, SUPERGROUP); BUG selects a seeded bug
(tests/corpus/cases.ts), `none` is the correct app."""
import os
from urllib.parse import urlencode

import httpx
from flask import Flask, redirect, request

AUTH = os.environ["AUTH_URL"]
ACCOUNTS = os.environ["ACCOUNTS_URL"]
CLIENT_ID = os.environ["CLIENT_ID"]
SECRET = os.environ["CLIENT_SECRET"]
PORT = int(os.environ["PORT"])
SUPERGROUP = os.environ.get("SUPERGROUP", "student")
BUG = os.environ.get("BUG", "none")
BUGS = {"none", "json-token-request", "redirect-uri-trailing-slash", "grant-code-as-token", "secret-in-link"}
if BUG not in BUGS:
    raise SystemExit(f"BUG is one of {', '.join(sorted(BUGS))}")

CALLBACK = f"http://localhost:{PORT}/callback"
http = httpx.Client(headers={"User-Agent": "corpus-httpx/1"}, timeout=10)
app = Flask(__name__)


def page(title, body, status=200):
    return f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title></head><body><main><h1>{title}</h1>{body}<p><a href="/login">Sign in again</a></p></main></body></html>', status


@app.get("/login")
def login():
    params = {"response_type": "code", "client_id": CLIENT_ID, "redirect_uri": CALLBACK, "country": "uk"}
    if BUG == "secret-in-link":
        params["client_secret"] = SECRET
    return redirect(f"{AUTH}/sso/{SUPERGROUP}?{urlencode(params)}")


@app.get("/callback")
def callback():
    code = request.args.get("code")
    if not code:
        return page("Sign-in cancelled", "<p>You cancelled the sign-in. Nothing was shared.</p>")
    params = {"grant_type": "authorization_code", "code": code, "redirect_uri": CALLBACK + ("/" if BUG == "redirect-uri-trailing-slash" else ""), "client_id": CLIENT_ID, "client_secret": SECRET}
    if BUG == "json-token-request":
        answer = http.post(f"{ACCOUNTS}/oauth/token", json=params)
    else:
        answer = http.post(f"{ACCOUNTS}/oauth/token", params=params)
    if answer.status_code != 200:
        return page("Sign-in not completed", f"<p>The service did not accept this sign-in ({answer.json().get('error')}).</p>", 400)
    token = code if BUG == "grant-code-as-token" else answer.json()["access_token"]
    me = http.get(f"{ACCOUNTS}/api/v3/me.json", headers={"Authorization": f"Bearer {token}"})
    if me.status_code == 404:
        return page("Account closed", "<p>This account has asked to be deleted.</p>", 403)
    if me.status_code != 200:
        return page("Sign-in failed", f"<p>The service could not tell us who you are ({me.status_code}).</p>", 502)
    profile = me.json()
    groups = [v.get("supergroup") or v.get("group") for v in profile["verifications"]]
    return page("Signed in", f"<p>Account {profile['sbid_number']}: {', '.join(groups) or 'no active verification'}.</p>")


if __name__ == "__main__":
    app.run(host="localhost", port=PORT, debug=True, use_reloader=False)
