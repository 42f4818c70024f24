#!/bin/sh
# Build CGSuite's NimValueSequence (Michael Albert's Grundy-value loop, in aaron-siegel/cgsuite)
# outside this repository, offline, as a speed anchor for take-and-break (hexadecimal) codes.
#
#   benchmarks/anchors/build_cgsuite_nimvalues.sh SNAPSHOT_GIT_DIR OUT_DIR
#
# SNAPSHOT_GIT_DIR: a clone (or bare snapshot) of cgsuite.  Needs javac (JDK 11 or newer).
# NimValueSequence.java is compiled as it is (its loop over a heap's options, the mex by
# BitSet), except where it reaches into the rest of CGSuite (Scala): HeapRuleset and
# Traversal (Scala traits) become small Java interfaces written here, the options of a heap
# come from a hexadecimal-code class written here (not CGSuite's TBCode), the Scala
# CalculationCanceledException becomes a Java one, and checkPeriodicity (Scala's Option and
# Periodicity) is left out.  OUT_DIR/run-nimvalues CODE N computes G(1..N) as CGSuite's
# HeapRuleset.nimValueSequence does (NimValueSequence.nimValues(N), which fills the table to
# heap N+1) and prints one line: code, N, seconds (the JVM's start excluded), sum of G(0..N).
set -eu
snapshot=$1
out=$(realpath -m "$2")
work=$(mktemp -d)
dir=lib/core/src/main/scala/org/cgsuite/core/impartial
git --git-dir="$snapshot" archive HEAD "$dir/NimValueSequence.java" | tar -x -C "$work"
src="$work/$dir"
python3 - "$src/NimValueSequence.java" <<'PY'
import re, sys
path = sys.argv[1]
text = open(path).read()
text = re.sub(r"import org\.cgsuite\.exception\.\w+\$?;\n|import scala\.[\w.$]+;\n", "", text)
text, n = re.subn(r"CalculationCanceledException\$\.MODULE\$\.apply\((\"[^\"]*\"), null, \(Option\) None\$\.MODULE\$\)",
                  r"new CalculationCanceledException(\1)", text)
assert n == 1, n
text, n = re.subn(r"\n    public Periodicity checkPeriodicity\(int maxHeapSize\)\s*{.*?\n    }\n", "\n", text,
                  count=1, flags=re.S)
assert n == 1, n
for needle in ("scala", "MODULE$", "Option", "Periodicity"):
    assert needle not in text, needle
open(path, "w").write(text)
PY
cat > "$src/HeapRuleset.java" <<'JAVA'
package org.cgsuite.core.impartial;

/** What NimValueSequence asks of CGSuite's HeapRuleset trait (a stand-in, not CGSuite's). */
public interface HeapRuleset
{
    Traversal traversal(int heapSize);
}
JAVA
cat > "$src/Traversal.java" <<'JAVA'
package org.cgsuite.core.impartial;

/** CGSuite's Traversal trait as Java sees it: the options of a heap, one at a time. */
public interface Traversal
{
    boolean advance();
    int currentLength();
    int currentPart(int i);
}
JAVA
cat > "$src/CalculationCanceledException.java" <<'JAVA'
package org.cgsuite.core.impartial;

class CalculationCanceledException extends RuntimeException
{
    CalculationCanceledException(String message) { super(message); }
}
JAVA
cat > "$src/HexCode.java" <<'JAVA'
package org.cgsuite.core.impartial;

import java.util.ArrayList;
import java.util.List;

/**
 * A hexadecimal take-and-break code d0.d1d2...dt (written for the benchmark anchor, not part
 * of CGSuite).  Digit dk (0-F): bit j set means a move that removes k tokens from a heap may
 * leave the rest as exactly j non-empty heaps (j = 0..3).  d0 may only split (bits 2 and 3);
 * its bit 0 means nothing and its bit 1 (a pass) is refused.
 */
public class HexCode implements HeapRuleset
{
    private final int[] takes;   // the move kinds, by tokens taken: takes[i] tokens ...
    private final int[] leaves;  // ... leaving leaves[i] heaps

    public HexCode(String code)
    {
        int dot = code.indexOf('.');
        String head = dot < 0 ? code : code.substring(0, dot);
        String tail = dot < 0 ? "" : code.substring(dot + 1);
        if (head.length() > 1) throw new IllegalArgumentException("bad code " + code);
        int d0 = head.isEmpty() ? 0 : digit(code, head.charAt(0));
        if ((d0 & 2) != 0) throw new IllegalArgumentException("d0 may not leave one heap: " + code);
        List<int[]> kinds = new ArrayList<>();
        for (int j = 2; j <= 3; j++) if ((d0 >> j & 1) != 0) kinds.add(new int[] {0, j});
        for (int k = 1; k <= tail.length(); k++)
        {
            int d = digit(code, tail.charAt(k - 1));
            for (int j = 0; j <= 3; j++) if ((d >> j & 1) != 0) kinds.add(new int[] {k, j});
        }
        takes = new int[kinds.size()];
        leaves = new int[kinds.size()];
        for (int i = 0; i < takes.length; i++) { takes[i] = kinds.get(i)[0]; leaves[i] = kinds.get(i)[1]; }
    }

    private static int digit(String code, char c)
    {
        int d = Character.digit(c, 16);
        if (d < 0) throw new IllegalArgumentException("not a hexadecimal digit in " + code + ": " + c);
        return d;
    }

    @Override public Traversal traversal(int heapSize) { return new Options(heapSize); }

    /** The options of heap n: for each kind (k, j), each multiset of j parts >= 1 summing
     *  to n - k, once, as a <= b <= c. */
    private final class Options implements Traversal
    {
        private final int n;
        private final int[] parts = new int[3];
        private int kind = -1, j, m, a, b, length;
        private boolean fresh;

        Options(int n) { this.n = n; }

        @Override public boolean advance()
        {
            while (true)
            {
                if (kind >= 0 && step()) return true;
                if (++kind >= takes.length || takes[kind] > n) return false;  // kinds go by k
                j = leaves[kind];
                m = n - takes[kind];
                fresh = true;
            }
        }

        /** The next option of the current kind, if any. */
        private boolean step()
        {
            switch (j)
            {
                case 0:
                    if (!fresh || m != 0) return false;
                    fresh = false;
                    length = 0;
                    return true;
                case 1:
                    if (!fresh || m < 1) return false;
                    fresh = false;
                    length = 1;
                    parts[0] = m;
                    return true;
                case 2:
                    if (fresh) { a = 1; fresh = false; } else a++;
                    if (2 * a > m) return false;
                    length = 2;
                    parts[0] = a;
                    parts[1] = m - a;
                    return true;
                default:
                    if (fresh) { a = 1; b = 1; fresh = false; }
                    else if (a + 2 * ++b > m) { a++; b = a; }
                    if (3 * a > m) return false;
                    length = 3;
                    parts[0] = a;
                    parts[1] = b;
                    parts[2] = m - a - b;
                    return true;
            }
        }

        @Override public int currentLength() { return length; }

        @Override public int currentPart(int i) { return parts[i]; }
    }
}
JAVA
cat > "$src/RunNimValues.java" <<'JAVA'
package org.cgsuite.core.impartial;

/** java RunNimValues CODE N: G(1..N) by NimValueSequence; one line: code, N, seconds, sum. */
public class RunNimValues
{
    public static void main(String[] args)
    {
        String code = args[0];
        int n = Integer.parseInt(args[1]);
        HexCode rules = new HexCode(code);
        long start = System.nanoTime();
        NimValueSequence sequence = new NimValueSequence(rules);
        int[] values = sequence.nimValues(n);  // G(1..N), as HeapRuleset.nimValueSequence
        double seconds = (System.nanoTime() - start) / 1e9;
        long sum = sequence.nimValue(0);
        for (int v : values) sum += v;
        System.out.printf("%s %d %.6f %d%n", code, n, seconds, sum);
    }
}
JAVA
mkdir -p "$out/classes"
javac -nowarn -encoding UTF-8 -d "$out/classes" "$src"/*.java 2>&1 | grep -v '^Note:' || true
test -f "$out/classes/org/cgsuite/core/impartial/RunNimValues.class"
cat > "$out/run-nimvalues" <<SH
#!/bin/sh
exec java -Xss64m -cp "$out/classes" org.cgsuite.core.impartial.RunNimValues "\$@"
SH
chmod +x "$out/run-nimvalues"
rm -rf "$work"
echo "$out/run-nimvalues"
