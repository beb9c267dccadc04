/** The software authenticator the tests drive WebAuthn with: the one `authflow/testing` ships. */
export * from "../../src/testing/authenticator.js"
