"""Mail over SMTP to a real server on loopback (aiosmtpd): STARTTLS with a throwaway self-signed certificate,
AUTH, dot-stuffing, and the failures an operator meets — a wrong password, a server without STARTTLS."""

import subprocess
import time

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult
from conftest import free_port

PASSWORD = "Trail-Mix-42!"

# The server without STARTTLS is meant to be insecure; aiosmtpd says so.
pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS:UserWarning")


class Recorder:
    """Keeps every delivered message with how it arrived."""

    def __init__(self):
        self.messages = []
        self.logins = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append({
            "from": envelope.mail_from, "to": envelope.rcpt_tos, "data": envelope.content.decode("utf-8", "replace"),
            "tls": session.ssl is not None, "authenticated": session.authenticated,
        })
        return "250 OK"

    def authenticate(self, server, session, envelope, mechanism, auth_data):
        ok = auth_data.login == b"cairn" and auth_data.password == b"s3cret-relay"
        self.logins.append((mechanism, auth_data.login.decode(), ok))
        return AuthResult(success=ok, handled=False)

    def wait_for(self, count, timeout=15):
        deadline = time.time() + timeout
        while time.time() < deadline and len(self.messages) < count:
            time.sleep(0.05)
        return self.messages


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tls")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
         "-keyout", str(folder / "key.pem"), "-out", str(folder / "cert.pem")],
        check=True, capture_output=True)
    return folder / "cert.pem", folder / "key.pem"


def smtp_server(certificate, starttls=True):
    import ssl
    recorder = Recorder()
    context = None
    if starttls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(*map(str, certificate))
    controller = Controller(
        recorder, hostname="127.0.0.1", port=free_port(), tls_context=context, require_starttls=starttls,
        authenticator=recorder.authenticate, auth_required=True, auth_require_tls=starttls)
    controller.start()
    return controller, recorder


def cairn_with_smtp(start_server, controller, certificate, password="s3cret-relay"):
    return start_server(env={
        "CAIRN_SMTP_URL": f"smtp://cairn:{password}@127.0.0.1:{controller.port}",
        "CAIRN_SMTP_CA_FILE": str(certificate[0]),
        "CAIRN_MAIL_FROM": "Cairn Club <cairn@club.example>",
    })


def register(server, first_name="Ada"):
    return server.api("POST", "/api/account", {
        "first_name": first_name, "last_name": "Lovelace", "username": "ada", "email": "ada@example.org",
        "password": PASSWORD, "password_confirmation": PASSWORD, "session": "token",
    })


def test_mail_goes_over_starttls_with_a_login_and_survives_dot_stuffing(start_server, certificate):
    controller, recorder = smtp_server(certificate)
    try:
        server = cairn_with_smtp(start_server, controller, certificate)

        status, _, _ = register(server, first_name=".Dot")
        reset, _, _ = server.api("POST", "/api/password-reset", {"email": "ada@example.org"})

        assert status == 201 and reset == 202
        welcome, code = recorder.wait_for(2)
        assert welcome["tls"] and welcome["authenticated"]
        assert recorder.logins[0] == ("PLAIN", "cairn", True)
        assert welcome["from"] == "cairn@club.example" and welcome["to"] == ["ada@example.org"]
        assert "\n.Dot, welcome to Cairn." in "\n" + welcome["data"].replace("\r\n", "\n").split("\n\n", 1)[1]
        assert "Subject: Your Cairn password reset code" in code["data"]
        assert not (server.data_dir / "outbox").exists()
        page, _, _ = server.api("GET", "/dev/outbox")
        assert page == 404
    finally:
        controller.stop()


def test_a_refused_login_is_reported_as_undeliverable_mail(start_server, certificate):
    controller, recorder = smtp_server(certificate)
    try:
        server = cairn_with_smtp(start_server, controller, certificate, password="wrong")

        created, _, _ = register(server)
        status, problem, _ = server.api("POST", "/api/password-reset", {"email": "ada@example.org"})

        assert created == 201, "a welcome mail that fails does not undo the sign-up"
        assert status == 503 and problem["detail"] == "The email could not be sent. Try again in a few minutes."
        assert recorder.logins and recorder.messages == []
        assert "535" in (server.data_dir / "server.log").read_text()
    finally:
        controller.stop()


def test_nothing_is_sent_to_a_server_without_starttls(start_server, certificate):
    controller, recorder = smtp_server(certificate, starttls=False)
    try:
        server = cairn_with_smtp(start_server, controller, certificate)

        register(server)
        status, _, _ = server.api("POST", "/api/password-reset", {"email": "ada@example.org"})

        assert status == 503
        assert recorder.logins == [] and recorder.messages == []
        assert "does not offer STARTTLS" in (server.data_dir / "server.log").read_text()
    finally:
        controller.stop()
