import { SolidAuth } from "authflow/solid-start"
import { authConfig } from "~/auth"

export const { GET, POST } = SolidAuth(authConfig)
