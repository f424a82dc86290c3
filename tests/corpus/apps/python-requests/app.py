"""An integrator's sign-in with Flask and requests, written from the interface. Configured by the environment
(AUTH_URL, ACCOUNTS_URL, CLIENT_ID, CLIENT_SECRET, PORT, SUPERGROUP); BUG selects a seeded bug
(tests/corpus/cases.ts), `none` is the correct app. Runs in Flask's debug mode, as apps under development do."""
import os
from urllib.parse import urlencode

import requests
from flask import Flask, redirect, request

AUTH = os.environ["AUTH_URL"]
ACCOUNTS = os.environ["ACCOUNTS_URL"]
CLIENT_ID = os.environ["CLIENT_ID"]
SECRET = os.environ["CLIENT_SECRET"]
PORT = int(os.environ["PORT"])
SUPERGROUP = os.environ.get("SUPERGROUP", "student")
BUG = os.environ.get("BUG", "none")
BUGS = {"none", "group-key-crash", "empty-verifications-crash", "me-404-crash", "me-401-crash", "redirect-uri-missing", "cancel-loop", "token-get"}
if BUG not in BUGS:
    raise SystemExit(f"BUG is one of {', '.join(sorted(BUGS))}")

CALLBACK = f"http://localhost:{PORT}/callback"
HEADERS = {"User-Agent": "corpus-python-requests/1"}
app = Flask(__name__)


def page(title, body, status=200):
    return f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title></head><body><main><h1>{title}</h1>{body}<p><a href="/login">Sign in again</a></p></main></body></html>', status


@app.get("/login")
def login():
    query = urlencode({"response_type": "code", "client_id": CLIENT_ID, "redirect_uri": CALLBACK, "country": "uk"})
    return redirect(f"{AUTH}/sso/{SUPERGROUP}?{query}")


@app.get("/callback")
def callback():
    code = request.args.get("code")
    if not code:
        if BUG == "cancel-loop":
            return redirect("/login")
        return page("Sign-in cancelled", "<p>You cancelled the sign-in. Nothing was shared.</p>")
    params = {"grant_type": "authorization_code", "code": code, "redirect_uri": CALLBACK, "client_id": CLIENT_ID, "client_secret": SECRET}
    if BUG == "redirect-uri-missing":
        del params["redirect_uri"]
    if BUG == "token-get":
        answer = requests.get(f"{ACCOUNTS}/oauth/token", params=params, headers=HEADERS, timeout=10)
    else:
        answer = requests.post(f"{ACCOUNTS}/oauth/token", params=params, headers=HEADERS, timeout=10)
    if BUG in ("redirect-uri-missing", "token-get"):
        answer.raise_for_status()
    if answer.status_code != 200:
        error = answer.json().get("error")
        if error == "invalid_grant":
            return page("Sign-in link used", "<p>That sign-in has already been used or has expired.</p>", 400)
        return page("Sign-in not completed", "<p>The service did not accept this sign-in.</p>", 502)
    token = answer.json()["access_token"]
    me = requests.get(f"{ACCOUNTS}/api/v3/me.json", headers={**HEADERS, "Authorization": f"Bearer {token}"}, timeout=10)
    if BUG in ("me-404-crash", "me-401-crash"):
        me.raise_for_status()
    if me.status_code == 404:
        return page("Account closed", "<p>This account has asked to be deleted.</p>", 403)
    if me.status_code != 200:
        return page("Sign-in failed", f"<p>The service could not tell us who you are ({me.status_code}).</p>", 502)
    profile = me.json()
    verifications = profile["verifications"]
    if BUG == "group-key-crash":
        groups = [v["supergroup"] for v in verifications]
    elif BUG == "empty-verifications-crash":
        groups = [verifications[0]["supergroup"]]
    else:
        groups = [v.get("supergroup") or v.get("group") for v in verifications]
    return page("Signed in", f"<p>Account {profile['sbid_number']}: {', '.join(groups) or 'no active verification'}.</p>")


if __name__ == "__main__":
    app.run(host="localhost", port=PORT, debug=True, use_reloader=False)
