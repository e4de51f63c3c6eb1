"""Spec example 1: success and failure on the same tool."""

import asyncio
import math

from toolnexus import ToolContext, define_tool


async def sqrt_handler(args, ctx):
    n = args.get("n")
    if n is None:
        raise ValueError("n is required")
    if n < 0:
        raise ValueError(f"cannot take the square root of {n}")
    return f"{math.sqrt(n):g}"


async def main() -> None:
    sqrt = define_tool("sqrt", "Square root", None, sqrt_handler)
    ok = await sqrt.call({"n": 16}, ToolContext())
    bad = await sqrt.call({"n": -1}, ToolContext())
    assert not ok.is_error and ok.output == "4"
    assert bad.is_error and bad.output == "cannot take the square root of -1"
    print(f"ok: {ok.output} | {bad.output}")


if __name__ == "__main__":
    asyncio.run(main())
