"""The account commands an operator runs: the first administrator, roles, and the demo account."""

import re


def test_user_create_admin_prints_a_password_that_signs_in_as_administrator(start_server):
    server = start_server()

    result = server.run_cli("user", "create", "--admin", "--username", "root-ann", "--email", "ann@example.org",
                            check=True)

    password = re.search(r"Password \(shown once\): (\S+)", result.stdout).group(1)
    status, session, _ = server.api("POST", "/api/session", {"login": "root-ann", "password": password, "session": "token"})
    assert status == 200 and session["account"]["role"] == "admin"
    status, users, _ = server.api("GET", "/api/admin/users", headers={"Authorization": f"Bearer {session['token']}"})
    assert status == 200 and [user["username"] for user in users] == ["root-ann"]


def test_user_commands_refuse_bad_input_in_one_line(start_server):
    server = start_server()

    weak = server.run_cli("user", "create", "--username", "bob", "--email", "bob@example.org", "--password-stdin")
    unknown = server.run_cli("user", "set-role", "nobody", "researcher")

    assert weak.returncode != 0 and "password" in weak.stderr.lower()
    assert unknown.returncode != 0 and "there is no user nobody" in unknown.stderr


def test_the_demo_account_is_seeded_once_and_signs_in(start_server):
    server = start_server(seed_demo=True)

    again = server.run_cli("seed-demo")
    status, _, _ = server.api("POST", "/api/session", {"login": "demo", "password": "Summit-Path-42!"})

    assert again.returncode == 0
    assert status == 200
