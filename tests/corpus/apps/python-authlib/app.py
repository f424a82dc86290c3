"""An integrator's sign-in with Flask and Authlib, written from the interface. Configured by the environment
(AUTH_URL, ACCOUNTS_URL, CLIENT_ID, CLIENT_SECRET, PORT, SUPERGROUP); BUG selects a seeded bug
(tests/corpus/cases.ts), `none` is the correct app: Authlib's OAuth2Session, whose state nobody checks, with the
credentials in the form body (client_secret_post)."""
import os
import secrets

from authlib.integrations.flask_client import OAuth
from authlib.integrations.requests_client import OAuth2Session
from flask import Flask, redirect, request, session

AUTH = os.environ["AUTH_URL"]
ACCOUNTS = os.environ["ACCOUNTS_URL"]
CLIENT_ID = os.environ["CLIENT_ID"]
SECRET = os.environ["CLIENT_SECRET"]
PORT = int(os.environ["PORT"])
SUPERGROUP = os.environ.get("SUPERGROUP", "student")
BUG = os.environ.get("BUG", "none")
BUGS = {"none", "registry-state", "no-user-agent-header", "me-403-crash", "cancel-as-error"}
if BUG not in BUGS:
    raise SystemExit(f"BUG is one of {', '.join(sorted(BUGS))}")

CALLBACK = f"http://localhost:{PORT}/callback"
AUTHORIZE_URL = f"{AUTH}/sso/{SUPERGROUP}?country=uk"
TOKEN_URL = f"{ACCOUNTS}/oauth/token"
ME_URL = f"{ACCOUNTS}/api/v3/me.json"
app = Flask(__name__)
app.secret_key = secrets.token_hex(16)

# The Flask integration the Authlib docs start with: it keeps a state in the session and checks it on the way back.
oauth = OAuth(app)
oauth.register("sso", client_id=CLIENT_ID, client_secret=SECRET, authorize_url=AUTHORIZE_URL, access_token_url=TOKEN_URL,
               token_endpoint_auth_method="client_secret_post", client_kwargs={"headers": {"User-Agent": "corpus-authlib/1"}})


def page(title, body, status=200):
    return f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title></head><body><main><h1>{title}</h1>{body}<p><a href="/login">Sign in again</a></p></main></body></html>', status


def client():
    oauth_session = OAuth2Session(CLIENT_ID, SECRET, token_endpoint_auth_method="client_secret_post", redirect_uri=CALLBACK)
    # The User-Agent comes from the deployment's settings; unset there, it is sent blank.
    default = "" if BUG == "no-user-agent-header" else "corpus-authlib/1"
    oauth_session.headers["User-Agent"] = os.environ.get("APP_USER_AGENT", default)
    return oauth_session


@app.get("/login")
def login():
    if BUG == "registry-state":
        return oauth.sso.authorize_redirect(CALLBACK, response_type="code")
    url, _state = client().create_authorization_url(AUTHORIZE_URL, response_type="code")
    return redirect(url)


@app.get("/callback")
def callback():
    if BUG == "registry-state":
        token = oauth.sso.authorize_access_token()  # raises MismatchingStateError: the service returns no state
        return page("Signed in", f"<p>Token type {token['token_type']}.</p>")
    code = request.args.get("code")
    if not code and BUG != "cancel-as-error":
        return page("Sign-in cancelled", "<p>You cancelled the sign-in. Nothing was shared.</p>")
    oauth_session = client()
    try:
        oauth_session.fetch_token(TOKEN_URL, code=code, method="POST")
    except Exception as error:  # Authlib raises OAuthError with the service's error
        if BUG == "cancel-as-error":
            raise
        return page("Sign-in not completed", f"<p>The service did not accept this sign-in ({getattr(error, 'error', 'error')}).</p>", 400)
    me = oauth_session.get(ME_URL)
    if BUG == "me-403-crash":
        me.raise_for_status()
    if me.status_code == 404:
        return page("Account closed", "<p>This account has asked to be deleted.</p>", 403)
    if me.status_code != 200:
        return page("Sign-in failed", f"<p>The service could not tell us who you are ({me.status_code}).</p>", 502)
    profile = me.json()
    groups = [v.get("supergroup") or v.get("group") for v in profile["verifications"]]
    return page("Signed in", f"<p>Account {profile['sbid_number']}: {', '.join(groups) or 'no active verification'}.</p>")


if __name__ == "__main__":
    app.run(host="localhost", port=PORT, debug=True, use_reloader=False)
