"""Where a `ToolResult` goes, and where a `ToolCall` comes from: each provider's and
protocol's shapes, as plain dicts.

Every adapter is a pure function between toolnexus types and what its target takes or
sends; none imports a provider SDK at run time or sends anything, and none ever copies
`metadata` into its output. What they return is typed as the provider SDK's own request
types (`TypedDict`s), so it passes to the SDK's `create()` under mypy and pyright.

| target | declarations | calls in (`ParsedCalls`) | results out |
|---|---|---|---|
| OpenAI Chat Completions | `openai_chat_tools` | `openai_chat_tool_calls` | `openai_chat_messages` |
| OpenAI Responses | `openai_responses_tools` | `openai_responses_tool_calls` | `openai_responses_output` |
| Anthropic Messages | `anthropic_tools` | `anthropic_tool_calls` | `anthropic_tool_result` |
| Gemini | `gemini_tools` | `gemini_tool_calls` | `gemini_function_response` |
| MCP | `mcp_tools` | `mcp_tool_calls` | `mcp_call_tool_result`, `from_mcp_call_tool_result` |

MCP's `input_required` result maps to a suspension both ways: a server sends
`mcp_input_required(result)` and reads the retry with `answer_from_mcp`; a client gets a
suspension from `from_mcp_call_tool_result` and retries with `mcp_input_responses`.

Each result adapter takes two keyword arguments, defaulting to the target's row of
`PROVIDER_LIMITS` (docs/guides/provider-limits.md, with the page each number comes from):
`structured`, which of `output` and `structured_content` the target gets, and `part_limits`, a
`PartLimit` per kind of part; a part over one is not sent, and a note naming it and the limit is.
"""

from ._limits import PROVIDER_LIMITS, PartLimit, ProviderLimits, Structured
from .anthropic import anthropic_tool_result, anthropic_tools
from .calls import (
    ParsedCalls,
    anthropic_tool_calls,
    gemini_tool_calls,
    mcp_tool_calls,
    openai_chat_tool_calls,
    openai_responses_tool_calls,
)
from .gemini import gemini_function_response, gemini_tools
from .mcp import (
    answer_from_mcp,
    from_mcp_call_tool_result,
    mcp_call_tool_result,
    mcp_input_required,
    mcp_input_responses,
    mcp_tools,
)
from .openai import openai_chat_messages, openai_chat_tools, openai_responses_output, openai_responses_tools

__all__ = [
    "PROVIDER_LIMITS",
    "ParsedCalls",
    "PartLimit",
    "ProviderLimits",
    "Structured",
    "answer_from_mcp",
    "anthropic_tool_calls",
    "anthropic_tool_result",
    "anthropic_tools",
    "from_mcp_call_tool_result",
    "gemini_function_response",
    "gemini_tool_calls",
    "gemini_tools",
    "mcp_call_tool_result",
    "mcp_input_required",
    "mcp_input_responses",
    "mcp_tool_calls",
    "mcp_tools",
    "openai_chat_messages",
    "openai_chat_tool_calls",
    "openai_chat_tools",
    "openai_responses_output",
    "openai_responses_tool_calls",
    "openai_responses_tools",
]
