# An integrator's sign-in with Sinatra and omniauth-oauth2 (Debian's ruby-omniauth-oauth2), written from the
# interface. Configured by the environment (AUTH_URL, ACCOUNTS_URL, CLIENT_ID, CLIENT_SECRET, PORT, SUPERGROUP);
# BUG selects a seeded bug (tests/corpus/cases.ts), "none" is the correct app.
require 'securerandom'
require 'sinatra/base'
require 'omniauth'
require 'omniauth-oauth2'

AUTH = ENV.fetch('AUTH_URL')
ACCOUNTS = ENV.fetch('ACCOUNTS_URL')
PORT = Integer(ENV.fetch('PORT'))
SUPERGROUP = ENV.fetch('SUPERGROUP', 'student')
BUG = ENV.fetch('BUG', 'none')
BUGS = %w[none state-default callback-url-query cancel-no-guard group-key-crash].freeze
abort "BUG is one of #{BUGS.join(', ')}" unless BUGS.include?(BUG)

# The strategy, as the omniauth-oauth2 README shows it.
module OmniAuth
  module Strategies
    class Sso < OmniAuth::Strategies::OAuth2
      option :name, 'sso'
      option :client_options, { site: ACCOUNTS, authorize_url: "#{AUTH}/sso/#{SUPERGROUP}", token_url: "#{ACCOUNTS}/oauth/token" }
      option :authorize_params, { country: 'uk' }
      option :provider_ignores_state, BUG != 'state-default'

      uid { raw_info['sbid_number'] }
      info do
        groups = raw_info['verifications'].map { |v| BUG == 'group-key-crash' ? v.fetch('supergroup') : (v['supergroup'] || v['group']) }
        { groups: groups }
      end

      def raw_info
        @raw_info ||= access_token.get('/api/v3/me.json').parsed
      end

      # omniauth's callback_url carries the callback's own query (the code) into the exchange's redirect_uri.
      def callback_url
        BUG == 'callback-url-query' ? super : full_host + callback_path
      end
    end
  end
end

# A cancel comes back without code: say so here, before omniauth turns it into a failed token request.
class CancelGuard
  def initialize(app) = @app = app

  def call(env)
    request = Rack::Request.new(env)
    if BUG != 'cancel-no-guard' && request.path == '/auth/sso/callback' && request.params['code'].to_s.empty?
      return [200, { 'content-type' => 'text/html; charset=utf-8' }, [App.page('Sign-in cancelled', '<p>You cancelled the sign-in. Nothing was shared.</p>')]]
    end
    @app.call(env)
  end
end

OmniAuth.config.allowed_request_methods = [:get]
OmniAuth.config.silence_get_warning = true
OmniAuth.config.logger = Logger.new(IO::NULL)

class App < Sinatra::Base
  set :port, PORT
  set :bind, 'localhost'
  set :server, 'webrick'
  set :sessions, true
  set :session_secret, SecureRandom.hex(64)
  use CancelGuard
  use OmniAuth::Builder do
    provider :sso, ENV.fetch('CLIENT_ID'), ENV.fetch('CLIENT_SECRET')
  end

  def self.page(title, body)
    %(<!doctype html><html lang="en"><head><meta charset="utf-8"><title>#{title}</title></head><body><main><h1>#{title}</h1>#{body}<p><a href="/login">Sign in again</a></p></main></body></html>)
  end

  get('/login') { redirect '/auth/sso' }

  get '/auth/sso/callback' do
    auth = request.env['omniauth.auth']
    groups = auth.info.groups.compact
    App.page('Signed in', "<p>Account #{Rack::Utils.escape_html(auth.uid)}: #{Rack::Utils.escape_html(groups.empty? ? 'no active verification' : groups.join(', '))}.</p>")
  end

  get '/auth/failure' do
    status 400
    App.page('Sign-in not completed', "<p>The sign-in did not complete (#{Rack::Utils.escape_html(params['message'].to_s)}). Please sign in again.</p>")
  end

  run! if app_file == $PROGRAM_NAME
end
