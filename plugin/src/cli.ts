import { runNodeJs } from "@bufbuild/protoplugin";
import { protocGenA2a } from "./protoc-gen-a2a-plugin.js";

runNodeJs(protocGenA2a);
