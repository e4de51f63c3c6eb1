"""Where a `ToolResult` goes: each provider's and protocol's shapes, as plain dicts.

Every adapter is a pure function from toolnexus types to the JSON its target takes
(or, for MCP, also back); none imports a provider SDK or sends anything, and none
ever copies `metadata` into its output.

| target | declarations | results |
|---|---|---|
| OpenAI Chat Completions | `openai_chat_tools` | `openai_chat_messages` |
| OpenAI Responses | `openai_responses_tools` | `openai_responses_output` |
| Anthropic Messages | `anthropic_tools` | `anthropic_tool_result` |
| Gemini | `gemini_tools` | `gemini_function_response` |
| MCP | `mcp_tools` | `mcp_call_tool_result`, `from_mcp_call_tool_result` |

MCP's `input_required` result maps to a suspension both ways: a server sends
`mcp_input_required(result)` and reads the retry with `answer_from_mcp`; a client gets a
suspension from `from_mcp_call_tool_result` and retries with `mcp_input_responses`.
"""

from .anthropic import anthropic_tool_result, anthropic_tools
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
    "answer_from_mcp",
    "anthropic_tool_result",
    "anthropic_tools",
    "from_mcp_call_tool_result",
    "gemini_function_response",
    "gemini_tools",
    "mcp_call_tool_result",
    "mcp_input_required",
    "mcp_input_responses",
    "mcp_tools",
    "openai_chat_messages",
    "openai_chat_tools",
    "openai_responses_output",
    "openai_responses_tools",
]
