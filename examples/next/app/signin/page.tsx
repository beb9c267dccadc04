import { PasskeyForm } from "./passkey-form"
import { PasswordForm } from "./password-form"

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { callbackUrl, error } = await searchParams
  const redirectTo = typeof callbackUrl === "string" ? callbackUrl : "/protected"
  return (
    <>
      <h1>Sign in</h1>
      {/* An error from elsewhere (authflow redirects here with ?error=) shows in the form too. */}
      <PasswordForm redirectTo={redirectTo} error={typeof error === "string" ? error : undefined} />
      <PasskeyForm redirectTo={redirectTo} />
    </>
  )
}
