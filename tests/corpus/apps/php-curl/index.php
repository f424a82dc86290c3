<?php
// An integrator's sign-in in plain PHP with curl, written from the interface; run by `php -S localhost:PORT
// index.php`. Configured by the environment (AUTH_URL, ACCOUNTS_URL, CLIENT_ID, CLIENT_SECRET, PORT, SUPERGROUP);
// BUG selects a seeded bug (tests/corpus/cases.ts), `none` is the correct app.
$AUTH = getenv('AUTH_URL');
$ACCOUNTS = getenv('ACCOUNTS_URL');
$CLIENT_ID = getenv('CLIENT_ID');
$SECRET = getenv('CLIENT_SECRET');
$PORT = getenv('PORT');
$SUPERGROUP = getenv('SUPERGROUP') ?: 'student';
$BUG = getenv('BUG') ?: 'none';
$BUGS = ['none', 'no-user-agent', 'reload-crash', 'invalid-client-crash', 'link-unencoded', 'redirect-host-unregistered', 'token-in-page'];
if (!in_array($BUG, $BUGS, true)) { http_response_code(500); exit("BUG is one of " . implode(', ', $BUGS)); }

$CALLBACK = "http://localhost:$PORT/callback";
// The app keeps where to go after sign-in on the callback URL (4.1.1 allows extra parameters).
$RETURN_TO = $CALLBACK . '?lang=en&next=/home';

function page($status, $title, $body) {
	http_response_code($status);
	header('Content-Type: text/html; charset=utf-8');
	echo "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>$title</title></head><body><main><h1>$title</h1>$body<p><a href=\"/login\">Sign in again</a></p></main></body></html>";
	exit;
}

function call($method, $url, $headers) {
	global $BUG;
	$ch = curl_init($url);
	curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);
	curl_setopt($ch, CURLOPT_CUSTOMREQUEST, $method);
	curl_setopt($ch, CURLOPT_HTTPHEADER, $headers);
	if ($BUG !== 'no-user-agent') curl_setopt($ch, CURLOPT_USERAGENT, 'corpus-php-curl/1');
	$body = curl_exec($ch);
	$status = curl_getinfo($ch, CURLINFO_RESPONSE_CODE);
	curl_close($ch);
	return [$status, $body];
}

$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
if ($path === '/login') {
	if ($BUG === 'link-unencoded') {
		// Concatenated by hand: the redirect URI's own `&next=` becomes a parameter of the link.
		$link = "$AUTH/sso/$SUPERGROUP?response_type=code&client_id=$CLIENT_ID&redirect_uri=$RETURN_TO&country=uk";
	} else {
		$redirect = $BUG === 'redirect-host-unregistered' ? "http://127.0.0.1:$PORT/callback?lang=en&next=/home" : $RETURN_TO;
		$link = "$AUTH/sso/$SUPERGROUP?" . http_build_query(['response_type' => 'code', 'client_id' => $CLIENT_ID, 'redirect_uri' => $redirect, 'country' => 'uk'], '', '&', PHP_QUERY_RFC3986);
	}
	header("Location: $link", true, 302);
	exit;
}
if ($path === '/callback') {
	if (!isset($_GET['code'])) page(200, 'Sign-in cancelled', '<p>You cancelled the sign-in. Nothing was shared.</p>');
	$query = http_build_query(['grant_type' => 'authorization_code', 'code' => $_GET['code'], 'redirect_uri' => $RETURN_TO, 'client_id' => $CLIENT_ID, 'client_secret' => $SECRET], '', '&', PHP_QUERY_RFC3986);
	[$status, $body] = call('POST', "$ACCOUNTS/oauth/token?$query", ['Accept: application/json']);
	$token = json_decode($body, true);
	if ($status !== 200 && !in_array($BUG, ['reload-crash', 'invalid-client-crash'], true)) {
		if (($token['error'] ?? '') === 'invalid_grant') page(400, 'Sign-in link used', '<p>That sign-in has already been used or has expired.</p>');
		page(502, 'Sign-in not completed', '<p>The service did not accept this sign-in.</p>');
	}
	if (!isset($token['access_token'])) {
		// What an unchecked answer leads to: PHP's fatal error page.
		http_response_code(500);
		throw new RuntimeException('Undefined array key "access_token"');
	}
	[$status, $body] = call('GET', "$ACCOUNTS/api/v3/me.json", ['Accept: application/json', 'Authorization: Bearer ' . $token['access_token']]);
	if ($status === 404) page(403, 'Account closed', '<p>This account has asked to be deleted.</p>');
	if ($status !== 200) page(502, 'Sign-in failed', "<p>The service could not tell us who you are ($status).</p>");
	$me = json_decode($body, true);
	$groups = array_map(fn($v) => $v['supergroup'] ?? $v['group'] ?? '', $me['verifications']);
	$extra = $BUG === 'token-in-page' ? '<script>localStorage.setItem("sso_token", ' . json_encode($token['access_token']) . ');</script>' : '';
	page(200, 'Signed in', '<p>Account ' . htmlspecialchars($me['sbid_number']) . ': ' . htmlspecialchars(implode(', ', $groups) ?: 'no active verification') . ".</p>$extra");
}
page(404, 'Not found', '');
