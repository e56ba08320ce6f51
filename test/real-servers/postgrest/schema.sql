-- PostgREST fixture: one table exposed in schema "api", JWT roles, a login function (as in
-- PostgREST's tutorials). Loaded once per cluster into a template database; each server gets a
-- copy, with its own passwords and its own app.jwt_secret set by harness/postgrest.ts.
create extension if not exists pgcrypto;
create schema api;
create schema auth;

create table api.widgets (
  id    serial primary key,
  name  text not null,
  price numeric(10,2) not null check (price >= 0)
);
insert into api.widgets (name, price) values ('seed-one', 1.50), ('seed-two', 2.00);

create role web_anon nologin;     -- requests without a JWT
create role api_user nologin;     -- full access
create role api_reader nologin;   -- the limited user: read only
create role authenticator noinherit login;
grant web_anon, api_user, api_reader to authenticator;

grant usage on schema api to web_anon, api_user, api_reader;
grant select, insert, update, delete on api.widgets to api_user;
grant usage on sequence api.widgets_id_seq to api_user;
grant select on api.widgets to api_reader;

-- users and login (pgjwt-style HS256 signing in SQL, pgcrypto's hmac)
create table auth.users (email text primary key, pass text not null, role name not null);
insert into auth.users values
  ('admin@example.com', crypt('admin-pass', gen_salt('bf')), 'api_user'),
  ('reader@example.com', crypt('reader-pass', gen_salt('bf')), 'api_reader');

create function auth.url_encode(data bytea) returns text language sql immutable as $$
  select translate(encode(data, 'base64'), E'+/=\n', '-_');
$$;
create function auth.sign(payload json, secret text) returns text language sql immutable as $$
  with h as (select auth.url_encode(convert_to('{"alg":"HS256","typ":"JWT"}', 'utf8')) as d),
       p as (select auth.url_encode(convert_to(payload::text, 'utf8')) as d),
       s as (select h.d || '.' || p.d as d from h, p)
  select s.d || '.' || auth.url_encode(hmac(s.d, secret, 'sha256')) from s;
$$;
create function api.login(email text, pass text) returns json
  language plpgsql security definer set search_path = public, auth as $$
declare r name;
begin
  select u.role into r from auth.users u where u.email = login.email and u.pass = crypt(login.pass, u.pass);
  if r is null then
    raise invalid_password using message = 'invalid email or password';
  end if;
  return json_build_object('token', auth.sign(json_build_object(
    'role', r, 'email', email, 'exp', extract(epoch from now())::integer + 3600),
    current_setting('app.jwt_secret')));
end $$;
revoke all on function api.login(text, text) from public;
grant execute on function api.login(text, text) to web_anon;
grant usage on schema auth to web_anon;
