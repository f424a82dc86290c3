"""An integrator's sign-in with Flask and requests-oauthlib (its "web application flow" docs), written from the
interface. Configured by the environment (AUTH_URL, ACCOUNTS_URL, CLIENT_ID, CLIENT_SECRET, PORT, SUPERGROUP); BUG
selects a seeded bug (tests/corpus/cases.ts), `none` is the correct app."""
import os
import secrets

from flask import Flask, redirect, request, session
from requests_oauthlib import OAuth2Session

AUTH = os.environ["AUTH_URL"]
ACCOUNTS = os.environ["ACCOUNTS_URL"]
CLIENT_ID = os.environ["CLIENT_ID"]
SECRET = os.environ["CLIENT_SECRET"]
PORT = int(os.environ["PORT"])
SUPERGROUP = os.environ.get("SUPERGROUP", "student")
BUG = os.environ.get("BUG", "none")
BUGS = {"none", "docs-state", "empty-verifications-crash", "me-404-crash"}
if BUG not in BUGS:
    raise SystemExit(f"BUG is one of {', '.join(sorted(BUGS))}")

CALLBACK = f"http://localhost:{PORT}/callback"
app = Flask(__name__)
app.secret_key = secrets.token_hex(16)


def page(title, body, status=200):
    return f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title></head><body><main><h1>{title}</h1>{body}<p><a href="/login">Sign in again</a></p></main></body></html>', status


@app.get("/login")
def login():
    oauth = OAuth2Session(CLIENT_ID, redirect_uri=CALLBACK)
    url, state = oauth.authorization_url(f"{AUTH}/sso/{SUPERGROUP}", country="uk")
    session["oauth_state"] = state
    return redirect(url)


@app.get("/callback")
def callback():
    if not request.args.get("code"):
        return page("Sign-in cancelled", "<p>You cancelled the sign-in. Nothing was shared.</p>")
    if BUG == "docs-state":
        # The docs' callback: the session's state checked against the redirect's, which the service never sends.
        oauth = OAuth2Session(CLIENT_ID, state=session.get("oauth_state"), redirect_uri=CALLBACK)
        oauth.fetch_token(f"{ACCOUNTS}/oauth/token", client_secret=SECRET, authorization_response=request.url)
    else:
        oauth = OAuth2Session(CLIENT_ID, redirect_uri=CALLBACK)
        oauth.headers["User-Agent"] = "corpus-requests-oauthlib/1"
        try:
            oauth.fetch_token(f"{ACCOUNTS}/oauth/token", client_secret=SECRET, code=request.args["code"], include_client_id=True)
        except Exception as error:
            return page("Sign-in not completed", f"<p>The service did not accept this sign-in ({getattr(error, 'error', 'error')}).</p>", 400)
    me = oauth.get(f"{ACCOUNTS}/api/v3/me.json")
    if BUG == "me-404-crash":
        me.raise_for_status()
    if me.status_code == 404:
        return page("Account closed", "<p>This account has asked to be deleted.</p>", 403)
    if me.status_code != 200:
        return page("Sign-in failed", f"<p>The service could not tell us who you are ({me.status_code}).</p>", 502)
    profile = me.json()
    first = profile["verifications"][0] if BUG == "empty-verifications-crash" else None
    groups = [v.get("supergroup") or v.get("group") for v in profile["verifications"]]
    return page("Signed in", f"<p>Account {profile['sbid_number']}: {', '.join(groups) or 'no active verification'}{' since ' + first['expires_on'] if first else ''}.</p>")


if __name__ == "__main__":
    os.environ.setdefault("OAUTHLIB_INSECURE_TRANSPORT", "1")  # http://localhost in development, as the docs say
    app.run(host="localhost", port=PORT, debug=True, use_reloader=False)
