// An integrator's sign-in with golang.org/x/oauth2, written from the interface. Configured by the environment
// (AUTH_URL, ACCOUNTS_URL, CLIENT_ID, CLIENT_SECRET, PORT, SUPERGROUP); BUG selects a seeded bug
// (tests/corpus/cases.ts), "none" is the correct app. Runs with Debian's golang-golang-x-oauth2-dev
// (GOPATH=/usr/share/gocode GO111MODULE=off).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"log"
	"net/http"
	"os"
	"strings"

	"golang.org/x/oauth2"
)

type verification struct {
	Supergroup string `json:"supergroup"`
	Group      string `json:"group"`
	ExpiresOn  string `json:"expires_on"`
}

type profile struct {
	SbidNumber    string         `json:"sbid_number"`
	Verifications []verification `json:"verifications"`
}

var bugs = map[string]bool{"none": true, "state-check": true, "cancel-as-error": true, "supergroup-only": true, "empty-verifications-panic": true, "me-401-unhandled": true}

func env(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	if fallback == "" {
		log.Fatalf("Set %s", name)
	}
	return fallback
}

func page(w http.ResponseWriter, status int, title, body string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>%s</title></head><body><main><h1>%s</h1>%s<p><a href="/login">Sign in again</a></p></main></body></html>`, title, title, body)
}

func main() {
	bug := env("BUG", "none")
	if !bugs[bug] {
		log.Fatalf("BUG %q is not one of this app's", bug)
	}
	port := env("PORT", "")
	supergroup := env("SUPERGROUP", "student")
	accounts := env("ACCOUNTS_URL", "")
	conf := &oauth2.Config{
		ClientID:     env("CLIENT_ID", ""),
		ClientSecret: env("CLIENT_SECRET", ""),
		RedirectURL:  "http://localhost:" + port + "/callback",
		Endpoint: oauth2.Endpoint{
			AuthURL:   env("AUTH_URL", "") + "/sso/" + supergroup,
			TokenURL:  accounts + "/oauth/token",
			AuthStyle: oauth2.AuthStyleInParams,
		},
	}
	state := ""
	if bug == "state-check" {
		state = "st4te-from-the-tutorial"
	}

	http.HandleFunc("/login", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, conf.AuthCodeURL(state, oauth2.SetAuthURLParam("country", "uk")), http.StatusFound)
	})
	http.HandleFunc("/callback", func(w http.ResponseWriter, r *http.Request) {
		if bug == "state-check" && r.FormValue("state") != state {
			http.Error(w, "invalid oauth state", http.StatusBadRequest)
			return
		}
		code := r.FormValue("code")
		if code == "" && bug != "cancel-as-error" {
			page(w, http.StatusOK, "Sign-in cancelled", "<p>You cancelled the sign-in. Nothing was shared.</p>")
			return
		}
		token, err := conf.Exchange(context.Background(), code)
		if err != nil {
			if bug == "cancel-as-error" {
				http.Error(w, "oauth2: "+err.Error(), http.StatusInternalServerError)
				return
			}
			page(w, http.StatusBadRequest, "Sign-in not completed", "<p>The service did not accept this sign-in. Please sign in again.</p>")
			return
		}
		res, err := conf.Client(context.Background(), token).Get(accounts + "/api/v3/me.json")
		if err != nil {
			page(w, http.StatusBadGateway, "Sign-in failed", "<p>We could not reach the service.</p>")
			return
		}
		defer res.Body.Close()
		if res.StatusCode == http.StatusNotFound {
			page(w, http.StatusForbidden, "Account closed", "<p>This account has asked to be deleted.</p>")
			return
		}
		if res.StatusCode != http.StatusOK && bug != "me-401-unhandled" {
			page(w, http.StatusBadGateway, "Sign-in failed", fmt.Sprintf("<p>The service could not tell us who you are (%d).</p>", res.StatusCode))
			return
		}
		var p profile
		if err := json.NewDecoder(res.Body).Decode(&p); err != nil {
			http.Error(w, "decoding me.json: "+err.Error(), http.StatusInternalServerError)
			return
		}
		if bug == "empty-verifications-panic" {
			_ = p.Verifications[0].Supergroup // the tutorial's "first verification"
		}
		groups := []string{}
		for _, v := range p.Verifications {
			g := v.Supergroup
			if g == "" && bug != "supergroup-only" {
				g = v.Group
			}
			if g != "" {
				groups = append(groups, g)
			}
		}
		if len(groups) == 0 && len(p.Verifications) > 0 {
			page(w, http.StatusForbidden, "Not verified", "<p>You are not verified for this offer.</p>")
			return
		}
		page(w, http.StatusOK, "Signed in", fmt.Sprintf("<p>Account %s: %s.</p>", html.EscapeString(p.SbidNumber), html.EscapeString(strings.Join(groups, ", "))))
	})
	log.Fatal(http.ListenAndServe("localhost:"+port, nil))
}
