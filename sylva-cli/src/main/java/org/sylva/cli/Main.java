package org.sylva.cli;

/** Entry point of the {@code sylva} command; placeholder until the command tree lands. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.out.println("sylva");
    }
}
