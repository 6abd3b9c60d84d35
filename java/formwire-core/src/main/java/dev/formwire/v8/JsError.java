package dev.formwire.v8;

/**
 * A JS Error. {@link #name} is Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError or URIError
 * (the encoder writes any other name as Error, SC-N-06); a null message or stack is absent; the cause counts only
 * when {@link #hasCause}.
 */
public final class JsError {
    public String name = "Error";
    public String message;
    public String stack;
    public boolean hasCause;
    public Object cause;

    public JsError() {}

    public JsError(String name, String message) {
        this.name = name;
        this.message = message;
    }

    /** Sets the cause and returns this. */
    public JsError cause(Object cause) {
        this.cause = cause;
        this.hasCause = true;
        return this;
    }

    @Override
    public String toString() {
        return name + (message == null ? "" : ": " + message);
    }
}
