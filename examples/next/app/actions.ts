"use server"
import { signInAction, signOut } from "@/auth"

/**
 * The sign-in form's action (through useActionState): on success it redirects to the form's
 * `redirectTo`; a wrong password comes back as `{ error: "CredentialsSignin" }` for the form to show.
 */
export async function signInWithPassword(_previous: unknown, formData: FormData) {
  return signInAction("credentials", formData)
}

export async function signOutAction() {
  await signOut({ redirectTo: "/" })
}
