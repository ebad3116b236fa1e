/// The server ``SMTPTestServer`` runs: aiosmtpd (Debian's python3-aiosmtpd) on 127.0.0.1, which
/// stores what it accepts under `received/` and reads the file `behaviour` for every message.
///
/// Options: `--directory` (where everything lives), `--security plain|starttls|tls` (TLS modes make a
/// self-signed certificate for 127.0.0.1 there, `certificate.pem`), `--user`, `--password`, `--token`
/// (XOAUTH2, offered only when given), `--mechanisms` (comma-separated, of PLAIN, LOGIN, XOAUTH2),
/// `--require-auth` and `--port` (0: a free one). It prints `READY <port>` once it listens, and exits
/// when its parent process does.
let smtpTestServerScript = #"""
    # A loopback SMTP server for chatmail's tests, on aiosmtpd. Written out and started by SMTPTestServer.
    import argparse, asyncio, base64, json, logging, os, ssl, subprocess, sys
    from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword, MISSING

    parser = argparse.ArgumentParser()
    parser.add_argument("--directory", required=True)
    parser.add_argument("--security", choices=["plain", "starttls", "tls"], required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--token")
    parser.add_argument("--mechanisms", default="PLAIN,LOGIN,XOAUTH2")
    parser.add_argument("--require-auth", action="store_true")
    parser.add_argument("--port", type=int, default=0)
    options = parser.parse_args()

    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    directory = options.directory
    received = os.path.join(directory, "received")
    os.makedirs(received, exist_ok=True)
    behaviour_file = os.path.join(directory, "behaviour")


    def behaviour():
        # The test switches behaviours between submissions; every message reads the current one.
        try:
            with open(behaviour_file, encoding="utf-8") as f:
                lines = f.read().split("\n")
        except FileNotFoundError:
            return "accept", ""
        return lines[0], (lines[1] if len(lines) > 1 else "")


    def store(envelope):
        existing = [name for name in os.listdir(received) if name.endswith(".json")]
        number = len(existing) + 1
        record = {
            "from": envelope.mail_from,
            "recipients": list(envelope.rcpt_tos),
            "data": base64.b64encode(envelope.original_content).decode("ascii"),
        }
        temporary = os.path.join(received, ".%06d.tmp" % number)
        with open(temporary, "w", encoding="utf-8") as f:
            json.dump(record, f)
        os.replace(temporary, os.path.join(received, "%06d.json" % number))
        return number


    def make_certificate():
        certificate = os.path.join(directory, "certificate.pem")
        key = os.path.join(directory, "key.pem")
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
             "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
             "-keyout", key, "-out", certificate],
            check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=sys.stderr)
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(certificate, key)
        return context


    class Handler:
        async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
            kind, argument = behaviour()
            if kind == "refuseRecipient" and address == argument:
                return "550 5.1.1 <%s>: Recipient address rejected: no such user here" % address
            envelope.rcpt_tos.append(address)
            return "250 OK"

        async def handle_DATA(self, server, session, envelope):
            kind, _ = behaviour()
            if kind == "refuse":
                return "554 5.7.1 Message rejected: the test server refuses this message"
            if kind == "tempfail":
                return "451 4.3.0 Mailbox temporarily unavailable: the test server defers this message"
            number = store(envelope)
            if kind == "dropAfterData":
                # Received, stored, and never answered: the client cannot know.
                server.transport.abort()
                if server._original_transport is not None:
                    server._original_transport.abort()
                logging.info("dropped the connection after storing message %d", number)
            return "250 2.0.0 Ok: queued as %06d" % number

        async def auth_XOAUTH2(self, server, args):
            if len(args) == 1:
                blob = await server.challenge_auth("")
                if blob is MISSING:
                    return AuthResult(success=False)
            else:
                try:
                    blob = base64.b64decode(args[1], validate=True)
                except ValueError:
                    return AuthResult(success=False, handled=False, message="501 5.5.2 Cannot decode base64")
            fields = blob.split(b"\x01")
            expected = [b"user=" + options.user.encode(), b"auth=Bearer " + options.token.encode(), b"", b""]
            return AuthResult(success=fields == expected, handled=False)


    def authenticator(server, session, envelope, mechanism, auth_data):
        valid = (isinstance(auth_data, LoginPassword)
                 and auth_data.login == options.user.encode()
                 and auth_data.password == options.password.encode())
        return AuthResult(success=valid, handled=False)


    async def watch_parent(parent):
        # The test process may die without stopping this server; then it is no longer this process's parent.
        while os.getppid() == parent:
            await asyncio.sleep(0.5)
        logging.info("parent gone; exiting")
        os._exit(0)


    def main():
        offered = set(options.mechanisms.split(",")) if options.mechanisms else set()
        if options.token is None:
            offered.discard("XOAUTH2")
        excluded = [m for m in ("PLAIN", "LOGIN", "XOAUTH2") if m not in offered]
        context = make_certificate() if options.security != "plain" else None
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)

        def session():
            return SMTP(
                Handler(), hostname="localhost", ident="chatmail test SMTP",
                tls_context=context if options.security == "starttls" else None,
                require_starttls=options.security == "starttls",
                # Implicit TLS is invisible to aiosmtpd, which would then never offer AUTH.
                auth_require_tls=options.security == "starttls",
                auth_required=options.require_auth, auth_exclude_mechanism=excluded,
                authenticator=authenticator, loop=loop)

        server = loop.run_until_complete(loop.create_server(
            session, host="127.0.0.1", port=options.port, ssl=context if options.security == "tls" else None))
        port = server.sockets[0].getsockname()[1]
        loop.create_task(watch_parent(os.getppid()))
        print("READY %d" % port, flush=True)
        loop.run_forever()


    main()
    """#
