"use server"
import { AuthError } from "authflow/errors"
import { redirect } from "next/navigation"
import { signIn, signOut } from "@/auth"

/** The sign-in form's action: credentials in, session cookie out, then on to `redirectTo`. */
export async function signInWithPassword(formData: FormData) {
  try {
    await signIn("credentials", formData)
  } catch (error) {
    // signIn redirects by throwing; only a refused sign-in is handled here.
    if (error instanceof AuthError) {
      const back = new URLSearchParams({ error: error.type })
      const redirectTo = formData.get("redirectTo")
      if (typeof redirectTo === "string" && redirectTo) back.set("callbackUrl", redirectTo)
      redirect(`/signin?${back}`)
    }
    throw error
  }
}

export async function signOutAction() {
  await signOut({ redirectTo: "/" })
}
