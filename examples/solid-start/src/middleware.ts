import { createMiddleware } from "@solidjs/start/middleware"
import { authMiddleware } from "authflow/solid-start"
import { authConfig, protectedPaths } from "~/auth"

// A full page load of a protected path without a session is redirected to "/".
export default createMiddleware({ onRequest: [authMiddleware(authConfig, { protectedPaths })] })
